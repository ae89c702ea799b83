//go:build go1.21

package strategy_test

import (
	"sort"
	"testing"

	"github.com/period-dev/period/strategy"
	"github.com/period-dev/period/strategy/sim"
)

func mustNew(t *testing.T, name string, o strategy.Options) strategy.Strategy {
	t.Helper()
	s, err := strategy.New(name, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// smallPrograms are the programs the systematic strategies are checked on.
func smallPrograms() []sim.Program {
	withPick := sim.Reorder(2)
	withPick.Threads[1] = append([]sim.Instr{sim.Pick("c", 2)}, withPick.Threads[1]...)
	return []sim.Program{sim.Reorder(2), sim.Reorder(3), sim.Counter(2, false), sim.Counter(2, true),
		sim.LockOrder(), sim.Philosophers(3), withPick}
}

// preemptions counts the switches away from a goroutine that stayed enabled.
func preemptions(s sim.Schedule) int {
	n := 0
	last := strategy.GID(-1)
	for _, st := range s.Steps {
		g := st.Enabled[st.Chosen].G
		for _, e := range st.Enabled {
			if e.G == last && g != last {
				n++
			}
		}
		last = g
	}
	return n
}

// delays counts round-robin skips: the position of the chosen goroutine in
// the cyclic GID order starting at the last one (or the next after it), plus
// the answers of choices.
func delays(s sim.Schedule) int {
	n := 0
	last := strategy.GID(-1)
	for _, st := range s.Steps {
		var order []strategy.GID
		for _, e := range st.Enabled {
			if e.G >= last {
				order = append(order, e.G)
			}
		}
		for _, e := range st.Enabled {
			if e.G < last {
				order = append(order, e.G)
			}
		}
		g := st.Enabled[st.Chosen].G
		for j, h := range order {
			if h == g {
				n += j
			}
		}
		n += st.Choice
		last = g
	}
	return n
}

func within(all []sim.Schedule, cost func(sim.Schedule) int, bound int) map[string]bool {
	m := map[string]bool{}
	for _, s := range all {
		if cost(s) <= bound {
			m[s.Interleaving] = true
		}
	}
	return m
}

func sameSet(t *testing.T, what string, got, want map[string]bool) {
	t.Helper()
	var missing, extra []string
	for k := range want {
		if !got[k] {
			missing = append(missing, k)
		}
	}
	for k := range got {
		if !want[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		t.Fatalf("%s: %d explored, %d expected; missing %d %q; extra %d %q", what, len(got), len(want), len(missing), first(missing), len(extra), first(extra))
	}
}

func first(s []string) []string {
	if len(s) > 2 {
		return s[:2]
	}
	return s
}

// TestDFSExhaustsExactly: DFS runs every schedule exactly once, then stops.
func TestDFSExhaustsExactly(t *testing.T) {
	for _, p := range smallPrograms() {
		all := sim.Enumerate(p)
		r := sim.Explore(p, mustNew(t, "dfs", strategy.Options{}), 100000)
		if r.Schedules != len(all) || !r.Exhausted {
			t.Errorf("%s: %d runs (exhausted %v), want exactly %d", p.Name, r.Schedules, r.Exhausted, len(all))
		}
		sameSet(t, p.Name, r.Interleavings, within(all, func(sim.Schedule) int { return 0 }, 0))
	}
	// Known counts: two unsynchronized increments after main: C(6,3) = 20.
	if r := sim.Explore(sim.Counter(2, false), mustNew(t, "dfs", strategy.Options{}), 1000); r.Schedules != 20 || r.Bugs == 0 {
		t.Errorf("counter_2: %d schedules, %d bugs; want 20 schedules with lost updates", r.Schedules, r.Bugs)
	}
}

// TestIPBMatchesBruteForce: for each bound c, IPB explores exactly the
// schedules with at most c preemptions, each once.
func TestIPBMatchesBruteForce(t *testing.T) {
	for _, p := range smallPrograms() {
		all := sim.Enumerate(p)
		for c := 0; c <= 3; c++ {
			want := within(all, preemptions, c)
			// Bound 0 selects the default, so level 0 is checked by cutting
			// bound 1 after its first level: the runs before the first
			// schedule with a preemption.
			var r sim.Result
			if c == 0 {
				r = sim.Explore(p, mustNew(t, "ipb", strategy.Options{Bound: 1}), len(want))
				r.Exhausted = true
			} else {
				r = sim.Explore(p, mustNew(t, "ipb", strategy.Options{Bound: c}), 100000)
			}
			sameSet(t, p.Name, r.Interleavings, want)
			if r.Schedules != len(want) || !r.Exhausted {
				t.Errorf("%s c=%d: %d runs, want %d", p.Name, c, r.Schedules, len(want))
			}
		}
	}
}

// TestIDBMatchesBruteForce: same for delay bounding.
func TestIDBMatchesBruteForce(t *testing.T) {
	for _, p := range smallPrograms() {
		all := sim.Enumerate(p)
		for d := 1; d <= 4; d++ {
			want := within(all, delays, d)
			r := sim.Explore(p, mustNew(t, "idb", strategy.Options{Bound: d}), 100000)
			sameSet(t, p.Name, r.Interleavings, want)
			if r.Schedules != len(want) || !r.Exhausted {
				t.Errorf("%s d=%d: %d runs, want %d", p.Name, d, r.Schedules, len(want))
			}
		}
	}
}

// skipper makes the engine's crash-recovery move: schedule skip is begun and
// ended without running (it killed an earlier process).
type skipper struct {
	strategy.Strategy
	skip, runs int
}

func (s *skipper) Begin() bool {
	if !s.Strategy.Begin() {
		return false
	}
	s.runs++
	if s.runs == s.skip {
		s.Strategy.End(&strategy.Run{Index: s.runs - 1, Cut: true})
		return s.Strategy.Begin()
	}
	return true
}

// TestDFSSkipsACrashedSchedule: after a skipped schedule DFS goes on, never
// repeats a schedule, and still ends. (Skipping the first schedule ends the
// search: nothing is known of the tree beyond a path that cannot run.)
func TestDFSSkipsACrashedSchedule(t *testing.T) {
	p := sim.Reorder(3)
	n := len(sim.Enumerate(p))
	for _, skip := range []int{2, 5, 100} {
		r := sim.Explore(p, &skipper{Strategy: mustNew(t, "dfs", strategy.Options{}), skip: skip}, 100000)
		if !r.Exhausted || len(r.Interleavings) != r.Schedules || r.Schedules >= n || r.Schedules < n/2 {
			t.Errorf("skip %d: %d runs (%d distinct) of %d, exhausted %v", skip, r.Schedules, len(r.Interleavings), n, r.Exhausted)
		}
	}
}
