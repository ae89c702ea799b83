//go:build go1.21

package strategy_test

import (
	"reflect"
	"testing"

	"github.com/period-dev/period/strategy"
	"github.com/period-dev/period/strategy/sim"
)

func pgNew(t *testing.T, name string, o strategy.Options) strategy.Strategy {
	t.Helper()
	s, err := strategy.New(name, o)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name() != name {
		t.Fatalf("name %q", s.Name())
	}
	return s
}

// pgRec records the schedule of every run.
type pgRec struct {
	strategy.Strategy
	ds []string
}

func (r *pgRec) End(run *strategy.Run) {
	r.Strategy.End(run)
	r.ds = append(r.ds, r.Strategy.(strategy.Describer).Describe())
}

// reorder_N (SCTBench; the paper's section 3.2.2): the checker must run
// between a setter's two writes. The parallel generator needs three periods
// whatever N is; the serialized one needs a period for every thread.
func TestPeriodReorder(t *testing.T) {
	first := map[int64]int{}
	for _, setters := range []int{10, 20} {
		prog := sim.Reorder(setters + 1)
		for seed := int64(0); seed < 5; seed++ {
			s := pgNew(t, "period", strategy.Options{Seed: seed, Bound: 3})
			r := sim.Explore(prog, s, 2000)
			if r.FirstBug == 0 {
				t.Fatalf("period, %d setters, seed %d: no bug in %d schedules", setters, seed, r.Schedules)
			}
			t.Logf("period, %d setters, seed %d: first bug at schedule %d", setters, seed, r.FirstBug)
			// The setters are interchangeable: the schedules tried first
			// are the same whatever their number.
			if f, ok := first[seed]; ok && f != r.FirstBug {
				t.Fatalf("seed %d: first bug at schedule %d with 10 setters, %d with 20", seed, f, r.FirstBug)
			}
			first[seed] = r.FirstBug
		}
		s := pgNew(t, "period-serial", strategy.Options{Bound: setters + 4})
		if r := sim.Explore(prog, s, 2000); r.FirstBug != 0 {
			t.Fatalf("period-serial, %d setters: bug at schedule %d, expected none within 2000", setters, r.FirstBug)
		}
	}
}

// The serialized generator's cost explodes with the number of threads
// (paper: 30, 384, 5040 schedules on reorder_3/4/5); the parallel one's does not.
func TestPeriodSerialGrowth(t *testing.T) {
	prevSerial := 0
	for n := 3; n <= 5; n++ {
		ser := sim.Explore(sim.Reorder(n), pgNew(t, "period-serial", strategy.Options{Bound: n + 4}), 5000)
		par := sim.Explore(sim.Reorder(n), pgNew(t, "period", strategy.Options{Bound: 3}), 5000)
		t.Logf("reorder_%d: period-serial %d schedules, period %d", n, ser.FirstBug, par.FirstBug)
		if ser.FirstBug == 0 || par.FirstBug == 0 {
			t.Fatalf("reorder_%d: serial %d, parallel %d", n, ser.FirstBug, par.FirstBug)
		}
		if ser.FirstBug <= 2*prevSerial || ser.FirstBug < 4*par.FirstBug {
			t.Fatalf("reorder_%d: serial needs %d (before %d), parallel %d", n, ser.FirstBug, prevSerial, par.FirstBug)
		}
		prevSerial = ser.FirstBug
	}
}

// The paper's Figure 1: all three bugs with enough periods. The double free
// needs five context switches.
func TestPeriodOnceFigure1(t *testing.T) {
	for _, spawn := range []bool{false, true} {
		for _, name := range []string{"period", "period-serial"} {
			s := pgNew(t, name, strategy.Options{Seed: 1, Bound: 6})
			r := pgsOnce(spawn).explore(s, 20000)
			for _, bug := range []string{"NPD", "UAF", "DF"} {
				if r.first[bug] == 0 {
					t.Fatalf("%s (spawn %v): %s not found in %d schedules (found %v)", name, spawn, bug, r.runs, r.first)
				}
				t.Logf("%s (spawn %v): %s at schedule %d: %s", name, spawn, bug, r.first[bug], r.sched[bug])
			}
		}
	}
	// With too small a bound the double free stays out of reach.
	s := pgNew(t, "period-serial", strategy.Options{Bound: 4})
	if r := pgsOnce(false).explore(s, 20000); r.first["DF"] != 0 {
		t.Fatalf("double free with 4 periods at schedule %d: %s", r.first["DF"], r.sched["DF"])
	}
}

func TestPeriodDeterministic(t *testing.T) {
	run := func(name string, seed int64) ([]string, []string) {
		s := &pgRec{Strategy: pgNew(t, name, strategy.Options{Seed: seed, Bound: 8})}
		r := sim.Explore(sim.Reorder(4), s, 300)
		return s.ds, r.Order
	}
	for _, name := range []string{"period", "period-serial"} {
		d1, o1 := run(name, 3)
		d2, o2 := run(name, 3)
		if len(d1) < 100 || !reflect.DeepEqual(d1, d2) || !reflect.DeepEqual(o1, o2) {
			t.Fatalf("%s: same seed, different exploration (%d runs)", name, len(d1))
		}
	}
	// The parallel generator's last period depends on the seed.
	_, o1 := run("period", 3)
	_, o2 := run("period", 4)
	if reflect.DeepEqual(o1, o2) {
		t.Fatal("period: seeds 3 and 4 explored the same interleavings")
	}
}

// Choose answers come from the seed too, and cover every alternative.
func TestPeriodChoose(t *testing.T) {
	s := pgNew(t, "period", strategy.Options{Seed: 5})
	if !s.Begin() {
		t.Fatal("no first run")
	}
	seen := map[int]bool{}
	var a []int
	for i := 0; i < 50; i++ {
		c := s.Choose(strategy.Event{}, 3)
		a = append(a, c)
		seen[c] = true
	}
	if len(seen) != 3 {
		t.Fatalf("choices %v", a)
	}
	s2 := pgNew(t, "period", strategy.Options{Seed: 5})
	s2.Begin()
	for i := 0; i < 50; i++ {
		if c := s2.Choose(strategy.Event{}, 3); c != a[i] {
			t.Fatalf("choice %d: %d then %d", i, a[i], c)
		}
	}
}

// A checkpointed exploration resumed in a fresh strategy continues exactly
// like the uninterrupted one.
func TestPeriodCheckpoint(t *testing.T) {
	for _, name := range []string{"period", "period-serial"} {
		o := strategy.Options{Seed: 9, Bound: 7}
		full := sim.Explore(sim.Reorder(3), pgNew(t, name, o), 400)
		if full.Schedules != 400 {
			t.Fatalf("%s: only %d schedules", name, full.Schedules)
		}
		first := pgNew(t, name, o)
		sim.Explore(sim.Reorder(3), first, 150)
		cp := first.(strategy.Checkpointer).Checkpoint()
		second := pgNew(t, name, o)
		if err := second.(strategy.Checkpointer).Restore(cp); err != nil {
			t.Fatal(err)
		}
		rest := sim.Explore(sim.Reorder(3), second, 250)
		if !reflect.DeepEqual(rest.Order, full.Order[150:]) {
			t.Fatalf("%s: resumed exploration differs", name)
		}
	}
	if err := pgNew(t, "period", strategy.Options{}).(strategy.Checkpointer).Restore([]byte(`{"Name":"period-serial"}`)); err == nil {
		t.Fatal("restored another strategy's checkpoint")
	}
}

// The exploration ends when the jobs run out, and respects the budget.
func TestPeriodEnds(t *testing.T) {
	r := sim.Explore(sim.Reorder(3), pgNew(t, "period", strategy.Options{Bound: 3}), 100000)
	if !r.Exhausted || r.Schedules > 5000 {
		t.Fatalf("reorder_3 with 3 periods: %d schedules, exhausted %v", r.Schedules, r.Exhausted)
	}
	s := pgNew(t, "period", strategy.Options{Bound: 5, Budget: 40})
	if r := sim.Explore(sim.Reorder(5), s, 100000); r.Schedules != 40 || !r.Exhausted {
		t.Fatalf("budget 40: %d schedules", r.Schedules)
	}
	// A correct program: no bug, whatever the schedule.
	r = sim.Explore(sim.Counter(3, true), pgNew(t, "period", strategy.Options{Bound: 4}), 5000)
	if r.Bugs != 0 {
		t.Fatalf("bug in a correct program: %s", r.Message)
	}
}

// A run released to free mode (rt's -parallel) teaches PERIOD what the same
// run picked event by event would: End rebuilds the last period from the
// recorded events. The serialized generator never releases.
func TestPeriodRelease(t *testing.T) {
	ev := func(g strategy.GID, site string) strategy.Event {
		return strategy.Event{G: g, Op: strategy.OpAtomic, Site: site}
	}
	// Three threads; the schedule's events as the engine would record them.
	events := []strategy.Event{ev(0, "a"), ev(0, "b"), ev(1, "c"), ev(2, "d"), ev(1, "e"), ev(0, "f"), ev(2, "g")}
	paths := []string{"0", "0.1", "0.2"}
	serial := pgNew(t, "period", strategy.Options{Seed: 1, Budget: 40})
	free := pgNew(t, "period", strategy.Options{Seed: 1, Budget: 40})
	rel := free.(strategy.Releaser)
	for run := 0; serial.Begin(); run++ {
		if !free.Begin() {
			t.Fatalf("run %d: the released exploration ended early", run)
		}
		var got []strategy.Event
		released := false
		for _, e := range events {
			serial.Next([]strategy.Event{e})
			if !released {
				free.Next([]strategy.Event{e})
				released = rel.Release()
			}
			got = append(got, e)
		}
		if !released {
			// Periods with an owner came first; nothing to compare in free mode.
			t.Logf("run %d: %s not released", run, serial.(strategy.Describer).Describe())
		}
		r := &strategy.Run{Index: run, Events: got, Paths: paths}
		serial.End(r)
		free.End(r)
		if a, b := serial.(strategy.Describer).Describe(), free.(strategy.Describer).Describe(); a != b {
			t.Fatalf("run %d: schedules differ: %s, released %s", run, a, b)
		}
	}
	ps := pgNew(t, "period-serial", strategy.Options{Seed: 1})
	ps.Begin()
	ps.Next([]strategy.Event{ev(0, "a")})
	if ps.(strategy.Releaser).Release() {
		t.Fatal("period-serial released its last period")
	}
}
