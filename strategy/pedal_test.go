//go:build go1.21

package strategy_test

import (
	"strings"
	"testing"

	"github.com/period-dev/period/strategy"
	"github.com/period-dev/period/strategy/sim"
)

// TestPedalPhilosophersDeadlockFirst: the lock cycle of n philosophers needs
// n-1 preemptions, which plain preemption bounding reaches only after all
// schedules with fewer; PEDAL's deadlock-first phase (RPS = the second lock
// of each philosopher, bound n) finds it on the run after the profile.
func TestPedalPhilosophersDeadlockFirst(t *testing.T) {
	for _, n := range []int{3, 5, 7} {
		p := sim.Philosophers(n)
		s := mustNew(t, "pedal", strategy.Options{Budget: 1000})
		r := sim.Explore(p, s, 1000)
		if r.FirstBug == 0 || r.FirstBug > 3 {
			t.Errorf("philosophers %d: first deadlock at schedule %d, want within 3", n, r.FirstBug)
			continue
		}
		// Run again up to the bug to see the phase that found it.
		s = mustNew(t, "pedal", strategy.Options{Budget: 1000})
		sim.Explore(p, s, r.FirstBug)
		if d := s.(strategy.Describer).Describe(); !strings.HasPrefix(d, "pedal deadlock-first:") {
			t.Errorf("philosophers %d: found in %q, want the deadlock-first phase", n, d)
		}
		ipb := sim.Explore(p, mustNew(t, "ipb", strategy.Options{}), 1000)
		t.Logf("philosophers %d: pedal at schedule %d (%s), ipb at %d", n, r.FirstBug, r.Message, ipb.FirstBug)
		if n >= 5 && ipb.FirstBug > 0 && ipb.FirstBug <= r.FirstBug {
			t.Errorf("philosophers %d: ipb (%d) no slower than pedal (%d)?", n, ipb.FirstBug, r.FirstBug)
		}
	}
}

// TestPedalFocus: the object-level RPS aims the search. Focused on the
// variable b of reorder, the bug is found; focused on nothing, only the
// schedules without preemptions remain (2) and the search ends clean.
func TestPedalFocus(t *testing.T) {
	r := sim.Explore(sim.Reorder(2), mustNew(t, "pedal", strategy.Options{Focus: "set.b"}), 1000)
	if r.Bugs == 0 {
		t.Errorf("focus on b: no bug in %d schedules", r.Schedules)
	}
	r = sim.Explore(sim.Reorder(2), mustNew(t, "pedal", strategy.Options{Focus: "nowhere"}), 1000)
	if r.Bugs != 0 || !r.Exhausted || r.Schedules != 3 {
		t.Errorf("focus on nothing: %d schedules, %d bugs, exhausted %v; want 3 (profile + 2), 0, true", r.Schedules, r.Bugs, r.Exhausted)
	}
}

// TestPedalNormalPhaseIsRestrictedIPB: without locks, PEDAL is preemption
// bounding over the shared sites: on reorder it explores exactly what IPB
// does (every site touches a shared variable), after the profile run.
func TestPedalNormalPhaseIsRestrictedIPB(t *testing.T) {
	p := sim.Reorder(2)
	want := within(sim.Enumerate(p), preemptions, 2)
	r := sim.Explore(p, mustNew(t, "pedal", strategy.Options{Bound: 2}), 100000)
	sameSet(t, "pedal reorder_2", r.Interleavings, want)
	if r.Schedules != len(want)+1 || !r.Exhausted {
		t.Errorf("%d schedules, want %d", r.Schedules, len(want)+1)
	}
}
