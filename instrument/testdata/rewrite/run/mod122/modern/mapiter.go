package modern

import "math"

// MapClosures returns one closure per entry of m: from Go 1.22 on, each sees
// its own key and value.
func MapClosures(m map[int]int) []func() int {
	var fs []func() int
	for k, v := range m {
		fs = append(fs, func() int { return k*100 + v })
	}
	return fs
}

// DeleteAhead deletes every other key at the first iteration: they must not
// be produced.
func DeleteAhead(m map[int]int) (seen int) {
	for k := range m {
		seen++
		for j := range m {
			if j != k {
				delete(m, j)
			}
		}
	}
	return seen
}

// ReadAtTurn zeroes every value at the first iteration: later iterations
// read the new values.
func ReadAtTurn(m map[int]int) (sum int) {
	first := true
	for k, v := range m {
		sum += v
		if first {
			first = false
			for j := range m {
				if j != k {
					m[j] = 0
				}
			}
		}
	}
	return sum
}

// NaNs ranges over a map with two NaN keys and a number, with labels,
// continue and break; it returns the sum of the values seen.
func NaNs() (sum, nans int) {
	m := map[float64]int{math.NaN(): 1, 2: 10}
	m[math.NaN()] = 100
outer:
	for k, v := range m {
		for {
			if k != k {
				nans++
				sum += v
				continue outer
			}
			break
		}
		sum += v
		if k == 2 {
			continue
		}
		break outer
	}
	return sum, nans
}

// ClearDuring clears m at the first iteration: nothing else is produced,
// NaN keys included.
func ClearDuring(m map[float64]int) (seen int) {
	for range m {
		seen++
		clear(m)
	}
	return seen
}

// Generic sums a map of any map type through a type parameter.
func Generic[M ~map[K]V, K comparable, V int | float64](m M) (keys []K, sum V) {
	for k, v := range m {
		keys = append(keys, k)
		sum += v
	}
	return keys, sum
}

type key struct {
	A string
	B int
}

// Structs returns the struct keys of m in range order.
func Structs(m map[key]bool) []key {
	var ks []key
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

var freshCalls int

func fresh() map[int]int {
	freshCalls++
	return map[int]int{3: 3, 1: 1, 2: 2}
}

// EvalOnce ranges over a call: it is made once.
func EvalOnce() (order []int, n int) {
	freshCalls = 0
	for k, v := range fresh() {
		order = append(order, k+v)
	}
	return order, freshCalls
}
