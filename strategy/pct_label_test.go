//go:build go1.21

package strategy

import (
	"math/rand"
	"slices"
	"testing"
)

// TestPCTHighestByLabels: the labels pick the goroutine a walk over the
// ranked list picks (the order that fixes every PCT schedule of a seed),
// through random admissions, lowerings and enabled subsets, including
// insertions that exhaust the room between two labels.
func TestPCTHighestByLabels(t *testing.T) {
	walk := func(s *pctStrategy, enabled []Event) int {
		for _, g := range s.ranked {
			for i, e := range enabled {
				if e.G == g {
					return i
				}
			}
		}
		return -1
	}
	for seed := int64(0); seed < 20; seed++ {
		s := newPCT(Options{Seed: seed, Bound: 3})
		s.k = 50
		s.Begin()
		r := rand.New(rand.NewSource(seed))
		n := 0
		for step := 0; step < 3000; step++ {
			if n < 400 && r.Intn(3) == 0 {
				n++
			}
			var enabled []Event
			for g := 0; g < n; g++ {
				if r.Intn(4) == 0 {
					enabled = append(enabled, Event{G: GID(g)})
				}
			}
			if len(enabled) == 0 {
				continue
			}
			s.admit(enabled)
			if want := walk(s, enabled); want >= 0 {
				if got := s.highest(enabled); got != want {
					t.Fatalf("seed %d step %d: highest = %d, ranked walk = %d", seed, step, got, want)
				}
			}
			if r.Intn(50) == 0 {
				s.lower(enabled[r.Intn(len(enabled))].G, 1+r.Intn(2))
			}
		}
	}
	// Adversarial: always insert at the same place, so the room between two
	// labels runs out and they are spread again.
	s := newPCT(Options{Seed: 1})
	s.Begin()
	for g := 0; g < 200; g++ {
		pos := min(1, len(s.ranked))
		s.ranked = slices.Insert(s.ranked, pos, GID(g))
		s.setLabel(pos)
		for i := 1; i < len(s.ranked); i++ {
			if s.label[s.ranked[i-1]] >= s.label[s.ranked[i]] {
				t.Fatalf("after %d insertions labels out of order at %d", g+1, i)
			}
		}
	}
}
