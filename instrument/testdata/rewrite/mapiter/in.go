// Package mapiter: range over maps iterates in rt.MapKeys order.
package mapiter

type Set map[string]struct{}

type Point struct{ X, Y int }

var global = map[int]string{}

func Forms(m map[int]string, s Set) (n int) {
	for k, v := range m {
		n += k + len(v)
	}
	for k := range m {
		n += k
	}
	for _, v := range m {
		n += len(v)
	}
	for range m {
		n++
	}
	for _ = range s {
		n++
	}
	for k, _ := range s {
		k := k + "!" // the body keeps its own scope
		n += len(k)
	}
	return n
}

func Labels(m map[Point][]int) int {
	n := 0
outer:
	for p, xs := range m {
		for _, x := range xs {
			if x < 0 {
				continue outer
			}
			if x > 100 {
				break outer
			}
			if x == 7 {
				goto done
			}
			n += x + p.X
		}
	}
done:
	return n
}

func Closures(m map[string]int) []func() (string, int) {
	var fs []func() (string, int)
	for k, v := range m { // go 1.22+: one k, v per iteration
		fs = append(fs, func() (string, int) { return k, v })
	}
	return fs
}

func Assign(m map[string]int, ks []string) (last string, total int) {
	var k string
	var v int
	for k, v = range m {
		total += v
	}
	last = k
	for ks[0], total = range m { // slice element: instrumented memory
	}
	done := make(chan bool)
	go func() { _ = k; done <- true }()
	for k = range m { // k is shared: written with a key point
	}
	<-done
	return last, total
}

func load() map[int]string { return global }

func SideEffects() int {
	n := 0
	for k := range load() { // evaluated once
		n += k
	}
	for k, v := range global { // a package variable: read once, with a key point
		n += k + len(v)
	}
	return n
}

func Generic[M ~map[K]V, K comparable, V any](m M, f func(K, V)) {
	for k, v := range m {
		f(k, v)
	}
}

type Mapish[K comparable] interface{ ~map[K]bool }

func Generic2[M Mapish[K], K comparable](m M) int {
	n := 0
	for range m {
		n++
	}
	return n
}

func NotMaps[S ~[]int](s S, a [3]int, str string) int {
	n := 0
	for i := range s {
		n += i
	}
	for i, x := range a {
		n += i + x
	}
	for i := range str {
		n += i
	}
	for i := range 3 {
		n += i
	}
	return n
}
