//go:build go1.21

package strategy_test

import (
	"bytes"
	"testing"

	"github.com/period-dev/period/strategy"
	"github.com/period-dev/period/strategy/sim"
)

// stableLog records a Seeker's Stable state before every run.
type stableLog struct {
	strategy.Seeker
	before [][]byte
}

func (s *stableLog) Begin() bool {
	s.before = append(s.before, s.Stable())
	return s.Seeker.Begin()
}

// TestSeekerRunsAlone: a seeded strategy restored from an earlier
// checkpoint and moved to run k runs what the serial exploration ran as run
// k whenever the stable state is the same (split exploration relies on
// it), and the checkpoint holds everything: a restored copy continues like
// the original.
func TestSeekerRunsAlone(t *testing.T) {
	for _, n := range []string{"random", "pct", "ppct"} {
		p := sim.Reorder(3)
		o := strategy.Options{Seed: 5, Bound: 3}
		whole := &stableLog{Seeker: mustNew(t, n, o).(strategy.Seeker)}
		all := sim.Explore(p, whole, 80)
		early := mustNew(t, n, o).(strategy.Seeker)
		sim.Explore(p, early, 30)
		cp, stable := early.Checkpoint(), early.Stable()
		same := 0
		for k := 31; k <= 80; k++ {
			s := mustNew(t, n, o).(strategy.Seeker)
			if err := s.Restore(cp); err != nil {
				t.Fatal(err)
			}
			s.Seek(k - 1)
			one := sim.Explore(p, s, 1)
			if bytes.Equal(whole.before[k-1], stable) {
				same++
				if one.Order[0] != all.Order[k-1] {
					t.Errorf("%s: run %d alone differs from run %d of the exploration", n, k, k)
				}
			}
		}
		if same == 0 {
			t.Errorf("%s: the stable state changed at every run: nothing compared", n)
		}
		// Restore then continue: runs 31..80 as the original.
		s := mustNew(t, n, o).(strategy.Seeker)
		if err := s.Restore(cp); err != nil {
			t.Fatal(err)
		}
		rest := sim.Explore(p, s, 50)
		for i := range rest.Order {
			if rest.Order[i] != all.Order[30+i] {
				t.Errorf("%s: restored run %d differs", n, 31+i)
				break
			}
		}
	}
}
