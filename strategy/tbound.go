//go:build go1.21

package strategy

import (
	"math"
	"math/rand"
)

// tbCover returns priority orders of n goroutines (each order lists them
// from highest to lowest priority) such that every relative order of every
// t of them appears in at least one: the thread-bounding family of
// Bindal, Bansal and Lal (seeds/variable-and-thread-bounding.txt, Lemma 4.1).
// Orders are drawn at random from rng; when the number of (subset, order)
// pairs is small enough to track, drawing stops exactly when all are covered,
// otherwise after (t+1)! (ln C(n,t) + ln 100) draws, which covers everything
// with probability 0.99.
func tbCover(n, t int, rng *rand.Rand) [][]int {
	if t > n {
		t = n
	}
	if n <= 1 || t <= 1 {
		return [][]int{rng.Perm(n)}
	}
	pairs := tbChoose(n, t) * tbFact(t)
	var out [][]int
	if pairs > 200000 {
		draws := math.Ceil(tbFact(t+1) * (math.Log(tbChoose(n, t)) + math.Log(100)))
		for i := 0; i < int(math.Min(draws, 10000)); i++ {
			out = append(out, rng.Perm(n))
		}
		return out
	}
	seen := map[uint64]bool{}
	idx := make([]int, t)
	for len(seen) < int(pairs) {
		p := rng.Perm(n)
		out = append(out, p)
		// Every t-subsequence of p is a relative order it covers.
		for i := range idx {
			idx[i] = i
		}
		for {
			var key uint64
			for _, i := range idx {
				key = key*uint64(n) + uint64(p[i])
			}
			seen[key] = true
			if !vbNextComb(idx, n) {
				break
			}
		}
	}
	return out
}

func tbChoose(n, k int) float64 {
	r := 1.0
	for i := 0; i < k; i++ {
		r = r * float64(n-i) / float64(i+1)
	}
	return math.Round(r)
}

func tbFact(k int) float64 {
	r := 1.0
	for i := 2; i <= k; i++ {
		r *= float64(i)
	}
	return r
}

// vbNextComb advances comb (ascending values below n) to the next
// combination in colexicographic order and reports whether there was one.
// Colex order lists every combination below m before any using m, so the
// enumeration can continue when n grows.
func vbNextComb(comb []int, n int) bool {
	for i := range comb {
		limit := n
		if i+1 < len(comb) {
			limit = comb[i+1]
		}
		if comb[i]+1 < limit {
			comb[i]++
			for j := 0; j < i; j++ {
				comb[j] = j
			}
			return true
		}
	}
	return false
}
