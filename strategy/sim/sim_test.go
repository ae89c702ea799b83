//go:build go1.21

package sim

import (
	"testing"

	"github.com/period-dev/period/strategy"
)

// firstEnabled always runs the lowest GID; it runs once per Begin budget.
type firstEnabled struct{ runs int }

func (f *firstEnabled) Name() string                   { return "first" }
func (f *firstEnabled) Begin() bool                    { f.runs++; return f.runs <= 3 }
func (f *firstEnabled) Next(en []strategy.Event) int   { return 0 }
func (f *firstEnabled) Choose(strategy.Event, int) int { return 1 }
func (f *firstEnabled) End(*strategy.Run)              {}

// lastEnabled always runs the highest GID.
type lastEnabled struct{ firstEnabled }

func (l *lastEnabled) Next(en []strategy.Event) int { return len(en) - 1 }

func TestExploreFirstEnabled(t *testing.T) {
	r := Explore(LockOrder(), &firstEnabled{}, 10)
	if r.Schedules != 3 || !r.Exhausted || r.Bugs != 0 || len(r.Interleavings) != 1 {
		t.Fatalf("got %+v", r)
	}
	want := "0:test 0.1:t0.0 0.1:t1.lockA 0.1:t1.lockB 0.1:t1.unlockB 0.1:t1.unlockA 0.2:t0.1 0.2:t2.lockB 0.2:t2.lockA 0.2:t2.unlockA 0.2:t2.unlockB"
	if r.Order[0] != want {
		t.Fatalf("interleaving\n%s\nwant\n%s", r.Order[0], want)
	}
}

// lockStepper alternates threads to reach the lock-order deadlock.
type scripted struct {
	firstEnabled
	picks []strategy.GID
	i     int
}

func (s *scripted) Begin() bool { s.i = 0; return s.firstEnabled.Begin() }
func (s *scripted) Next(en []strategy.Event) int {
	if s.i < len(s.picks) {
		for k, e := range en {
			if e.G == s.picks[s.i] {
				s.i++
				return k
			}
		}
	}
	return 0
}

func TestDeadlockDetected(t *testing.T) {
	// main, t1 start, t1 lockA, t2 start, t2 lockB: both block.
	r := Explore(LockOrder(), &scripted{picks: []strategy.GID{0, 1, 1, 2, 2}}, 1)
	if r.FirstBug != 1 || r.Bugs != 1 || r.Message != "deadlock: all threads are blocked" {
		t.Fatalf("got %+v", r)
	}
}

func TestObjChangesAcrossRuns(t *testing.T) {
	var objs []uintptr
	s := &recorder{f: func(r *strategy.Run) {
		for _, e := range r.Events {
			if e.Op == strategy.OpLock {
				objs = append(objs, e.Obj)
				return
			}
		}
	}}
	Explore(LockOrder(), s, 2)
	if len(objs) != 2 || objs[0] == objs[1] || objs[0] == 0 {
		t.Fatalf("objs %v: want distinct non-zero identities per run", objs)
	}
}

type recorder struct {
	firstEnabled
	f func(*strategy.Run)
}

func (r *recorder) End(run *strategy.Run) { r.f(run) }

func TestChooseAndChecks(t *testing.T) {
	p := Program{Threads: [][]Instr{{
		Pick("c", 3),
		Check("picked 1", func(l Locals) bool { return l["c"] != 1 }),
	}}}
	r := Explore(p, &firstEnabled{}, 1)
	if r.Bugs != 1 || r.Order[0] != "0:test 0:t0.0=1" {
		t.Fatalf("got %+v", r)
	}
}

func TestEnumerate(t *testing.T) {
	// Two independent two-step threads after main: C(4,2) = 6 interleavings of
	// the two bodies' 3 key points each (start + 2) = C(6,3) = 20.
	all := Enumerate(Counter(2, false))
	if len(all) != 20 {
		t.Fatalf("%d schedules, want 20", len(all))
	}
	bugs := 0
	seen := map[string]bool{}
	for _, s := range all {
		seen[s.Interleaving] = true
		if s.Buggy {
			bugs++
		}
	}
	if len(seen) != 20 || bugs == 0 || bugs == 20 {
		t.Fatalf("distinct %d, buggy %d", len(seen), bugs)
	}
	// Every schedule of the correct counter is bug-free; each enumerated
	// schedule replays to the same interleaving.
	for _, s := range Enumerate(Counter(2, true)) {
		if s.Buggy {
			t.Fatalf("correct counter failed: %s", s.Interleaving)
		}
	}
	dl := 0
	for _, s := range Enumerate(Philosophers(3)) {
		if s.Buggy {
			dl++
		}
	}
	if dl == 0 {
		t.Fatal("philosophers(3) never deadlocks")
	}
}

func TestReorderBuggy(t *testing.T) {
	for _, n := range []int{2, 3} {
		bugs := 0
		all := Enumerate(Reorder(n))
		for _, s := range all {
			if s.Buggy {
				bugs++
			}
		}
		if bugs == 0 || bugs == len(all) {
			t.Fatalf("reorder_%d: %d of %d buggy", n, bugs, len(all))
		}
	}
}

// replayer follows enumerated schedules one per run.
type replayer struct {
	scheds []Schedule
	run, i int
}

func (r *replayer) Name() string { return "replay" }
func (r *replayer) Begin() bool  { r.i = 0; return r.run < len(r.scheds) }
func (r *replayer) Next(en []strategy.Event) int {
	s := r.scheds[r.run].Steps[r.i]
	r.i++
	return s.Chosen
}
func (r *replayer) Choose(strategy.Event, int) int { return r.scheds[r.run].Steps[r.i-1].Choice }
func (r *replayer) End(*strategy.Run)              { r.run++ }

func TestEnumerateReplaysInExplore(t *testing.T) {
	p := Reorder(3)
	p.Threads[0] = append(p.Threads[0], Pick("c", 2))
	all := Enumerate(p)
	r := Explore(p, &replayer{scheds: all}, len(all)+1)
	if r.Schedules != len(all) || !r.Exhausted {
		t.Fatalf("ran %d of %d", r.Schedules, len(all))
	}
	for i, s := range all {
		if r.Order[i] != s.Interleaving {
			t.Fatalf("schedule %d replays as\n%s\nwant\n%s", i, r.Order[i], s.Interleaving)
		}
	}
}
