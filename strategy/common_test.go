//go:build go1.21

package strategy_test

import (
	"reflect"
	"testing"

	"github.com/period-dev/period/strategy"
	"github.com/period-dev/period/strategy/sim"
)

// mine are the strategies of this package tested here (period has its own tests).
var mine = []string{"random", "dfs", "ipb", "idb", "pct", "ppct", "pedal", "vb", "pctvb"}

// correct is a bug-free program: locked increments, a select-like choice and
// a lock-protected pair of variables kept consistent.
func correct() sim.Program {
	p := sim.Counter(3, true)
	p.Threads = append(p.Threads, []sim.Instr{
		sim.Pick("c", 3),
		sim.Lock("m"), sim.Write("a", 1), sim.Write("b", -1), sim.Unlock("m"),
	}, []sim.Instr{
		sim.Lock("m"), sim.Read("a", "x"), sim.Read("b", "y"), sim.Unlock("m"),
		sim.Check("a and b consistent", func(l sim.Locals) bool { return l["x"] == 0 && l["y"] == 0 || l["x"] == 1 && l["y"] == -1 }),
	})
	p.Threads[0] = append(p.Threads[0], sim.Spawn(4), sim.Spawn(5))
	return p
}

func TestEveryStrategyRegistered(t *testing.T) {
	names := map[string]bool{}
	for _, n := range strategy.Names() {
		names[n] = true
	}
	for _, n := range mine {
		if !names[n] {
			t.Errorf("%s not registered", n)
		}
		if s := mustNew(t, n, strategy.Options{}); s.Name() != n {
			t.Errorf("%s calls itself %s", n, s.Name())
		}
	}
}

// TestDeterministic: the same seed gives the same runs, twice; a different
// seed changes the randomized strategies' runs.
func TestDeterministic(t *testing.T) {
	for _, n := range mine {
		for _, p := range []sim.Program{sim.Reorder(3), sim.Philosophers(3), correct()} {
			o := strategy.Options{Seed: 7, Budget: 300}
			a := sim.Explore(p, mustNew(t, n, o), 300)
			b := sim.Explore(p, mustNew(t, n, o), 300)
			if !reflect.DeepEqual(a.Order, b.Order) {
				t.Errorf("%s on %s: two explorations with seed 7 differ", n, p.Name)
			}
		}
	}
	for _, n := range []string{"random", "pct", "ppct", "pctvb"} {
		a := sim.Explore(sim.Reorder(4), mustNew(t, n, strategy.Options{Seed: 1}), 50)
		b := sim.Explore(sim.Reorder(4), mustNew(t, n, strategy.Options{Seed: 2}), 50)
		if reflect.DeepEqual(a.Order, b.Order) {
			t.Errorf("%s: seeds 1 and 2 give the same 50 runs", n)
		}
	}
}

// TestNoFalseBugs: no strategy reports a bug on a correct program.
func TestNoFalseBugs(t *testing.T) {
	for _, n := range mine {
		r := sim.Explore(correct(), mustNew(t, n, strategy.Options{Seed: 3, Budget: 2000}), 2000)
		if r.Bugs != 0 {
			t.Errorf("%s: %d bugs on a correct program, first: %s", n, r.Bugs, r.Message)
		}
		if r.Schedules == 0 {
			t.Errorf("%s: ran nothing", n)
		}
	}
}

// TestEveryStrategyFindsReorder: every strategy finds reorder_3 within 2000.
func TestEveryStrategyFindsReorder(t *testing.T) {
	for _, n := range mine {
		r := sim.Explore(sim.Reorder(3), mustNew(t, n, strategy.Options{Seed: 1, Budget: 2000}), 2000)
		t.Logf("%s: first bug at %d", n, r.FirstBug)
		if r.FirstBug == 0 {
			t.Errorf("%s: reorder_3 not found in %d schedules", n, r.Schedules)
		}
	}
}

// TestCheckpointResume: a random or systematic exploration resumed from a
// checkpoint in a fresh strategy continues exactly as the uninterrupted one.
func TestCheckpointResume(t *testing.T) {
	p := sim.Reorder(3)
	for _, n := range []string{"random", "dfs", "ipb", "idb"} {
		full := sim.Explore(p, mustNew(t, n, strategy.Options{Seed: 5}), 60)
		s1 := mustNew(t, n, strategy.Options{Seed: 5})
		first := sim.Explore(p, s1, 25)
		cp := s1.(strategy.Checkpointer).Checkpoint()
		s2 := mustNew(t, n, strategy.Options{Seed: 5})
		if err := s2.(strategy.Checkpointer).Restore(cp); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		rest := sim.Explore(p, s2, 35)
		got := append(append([]string(nil), first.Order...), rest.Order...)
		if !reflect.DeepEqual(got, full.Order) {
			t.Errorf("%s: resumed exploration differs from the uninterrupted one", n)
		}
	}
}
