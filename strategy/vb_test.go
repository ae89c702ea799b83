//go:build go1.21

package strategy_test

import (
	"fmt"
	"testing"

	"github.com/period-dev/period/strategy"
	"github.com/period-dev/period/strategy/sim"
)

// permutations of xs, each as a slice.
func permutations(xs []int) [][]int {
	if len(xs) <= 1 {
		return [][]int{append([]int(nil), xs...)}
	}
	var out [][]int
	for i := range xs {
		rest := append(append([]int(nil), xs[:i]...), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]int{xs[i]}, p...))
		}
	}
	return out
}

// subsets of {0..n-1} of size k, by plain recursion.
func subsets(n, k int) [][]int {
	if k == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for last := k - 1; last < n; last++ {
		for _, s := range subsets(last, k-1) {
			out = append(out, append(s, last))
		}
	}
	return out
}

// TestThreadBoundingCovers: for every t-subset of n goroutines and every
// order of it, some generated priority order ranks them in that order.
func TestThreadBoundingCovers(t *testing.T) {
	for _, c := range []struct{ n, t int }{{3, 2}, {5, 2}, {5, 3}, {8, 3}, {7, 4}} {
		orders := strategy.TBCover(c.n, c.t, strategy.RNGFor(1, 0))
		for _, o := range orders {
			if len(o) != c.n {
				t.Fatalf("order %v has %d goroutines, want %d", o, len(o), c.n)
			}
		}
		rank := make([][]int, len(orders)) // rank[i][g]: position of g in order i
		for i, o := range orders {
			rank[i] = make([]int, c.n)
			for pos, g := range o {
				rank[i][g] = pos
			}
		}
		for _, sub := range subsets(c.n, c.t) {
			for _, want := range permutations(sub) {
				found := false
				for i := range orders {
					ok := true
					for j := 1; j < len(want); j++ {
						if rank[i][want[j-1]] > rank[i][want[j]] {
							ok = false
							break
						}
					}
					if ok {
						found = true
						break
					}
				}
				if !found {
					t.Fatalf("n=%d t=%d: order %v of %v not covered by %d orders", c.n, c.t, want, sub, len(orders))
				}
			}
		}
		t.Logf("n=%d t=%d: %d orders", c.n, c.t, len(orders))
	}
}

// TestNextCombColex: colex enumeration yields every combination once, and
// continues when the universe grows.
func TestNextCombColex(t *testing.T) {
	seen := map[string]bool{}
	comb := []int{0, 1, 2}
	n := 5
	count := 1
	seen[fmt.Sprint(comb)] = true
	for {
		if !strategy.VBNextComb(comb, n) {
			if n == 7 {
				break
			}
			n++ // the universe grows: the enumeration goes on
			continue
		}
		if seen[fmt.Sprint(comb)] {
			t.Fatalf("%v twice", comb)
		}
		seen[fmt.Sprint(comb)] = true
		count++
	}
	if count != 35 { // C(7,3)
		t.Fatalf("%d combinations, want 35", count)
	}
}

// TestVBFindsBugs: reorder is a 1-variable bug (preempt a setter before it
// writes b); the lock-order deadlock needs no preemption on variables but
// thread orders and one preemption at a lock.
func TestVBFindsBugs(t *testing.T) {
	for _, p := range []sim.Program{sim.Reorder(2), sim.Reorder(4), sim.LockOrder(), sim.Philosophers(3)} {
		r := sim.Explore(p, mustNew(t, "vb", strategy.Options{Seed: 1}), 2000)
		t.Logf("vb on %s: first bug at %d of %d schedules (exhausted %v)", p.Name, r.FirstBug, r.Schedules, r.Exhausted)
		if r.Bugs == 0 {
			t.Errorf("vb: no bug in %s", p.Name)
		}
	}
	// A correct program: the search ends, clean.
	r := sim.Explore(sim.Counter(3, true), mustNew(t, "vb", strategy.Options{Seed: 1}), 5000)
	if r.Bugs != 0 || !r.Exhausted {
		t.Errorf("vb on a correct counter: %d bugs, exhausted %v after %d", r.Bugs, r.Exhausted, r.Schedules)
	}
}

func TestPCTVBFindsReorder(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		r := sim.Explore(sim.Reorder(3), mustNew(t, "pctvb", strategy.Options{Seed: seed, Bound: 2}), 500)
		if r.Bugs == 0 {
			t.Errorf("seed %d: pctvb never found reorder_3", seed)
		}
	}
}
