//go:build go1.21

package rt

import (
	"bytes"
	"testing"
	"time"

	"github.com/period-dev/period/strategy"
)

// Split exploration (Config.Start, Runs, StateOut): the period command runs
// the schedules of one test in several processes at once (period test -p,
// -shard). Every process starts from the same state file (the exploration
// as it was after the last schedule the command kept: the strategy's
// checkpoint, the goroutine path table, the memory sites learned shared,
// the first schedule's length, the bugs reported) and runs the schedules it
// is given, each as if the schedules before it had left that state. That is
// exactly the run one long process would make as long as no earlier
// schedule changed the state; schedules rarely do once the first few have
// run. So every schedule reports whether it changed the state (or ended the
// exploration), the process stops after the first that did, and the
// command keeps the schedules up to the first change (in schedule order,
// over all processes), takes the state after it and starts the next round
// from there. Only seeded strategies whose run i depends on nothing else
// than the seed, i and that state can be split (strategy.Seeker).

// splitLine reports one schedule run in a split exploration.
type splitLine struct {
	Action       string // "sched"
	Test         string
	Schedule     int
	Steps        int         `json:",omitempty"`
	Forced       int         `json:",omitempty"`
	Cut          bool        `json:",omitempty"` // stopped at the step limit, no verdict
	Uncontrolled int         `json:",omitempty"`
	AbandonedWhy string      `json:",omitempty"`
	Kinds        []string    `json:",omitempty"` // the bug kinds the schedule hit
	Bugs         []BugReport `json:",omitempty"` // bugs first seen in this schedule
	Describe     string      `json:",omitempty"` // the schedule in the strategy's notation, when it has new bugs
	Changed      bool        `json:",omitempty"` // it changed the state later schedules start from
	End          bool        `json:",omitempty"` // the exploration ends with it
	Exhausted    bool        `json:",omitempty"` // the strategy had no schedule left (not run)
	Only         bool        `json:",omitempty"` // the first schedule had no alternative at any step: the only one (End)
	// ClockBase: where schedule 1's clock started, if it read the clock
	// (BugReport.FirstClockBase for bugs other workers find).
	ClockBase int64 `json:",omitempty"`
}

type splitRun struct {
	fs     *freshState
	st     strategy.Seeker
	runs   []int
	i      int
	npaths int
	stable []byte
	cont   bool
}

func exploreSplit(t *testing.T, tt Test, cfg Config, st strategy.Strategy, restores []func(), out *resultWriter, sum Summary, start time.Time) Summary {
	sk, ok := st.(strategy.Seeker)
	if !ok {
		t.Fatalf("strategy %s cannot be split over processes", st.Name())
	}
	fs, err := loadFresh(cfg.Start, cfg, tt.Name)
	if err != nil {
		t.Fatal(err)
	}
	resetPaths()
	if err := internPaths(fs.Paths); err != nil {
		t.Fatal(err)
	}
	if fs.Checkpoint != nil {
		if err := sk.Restore(fs.Checkpoint); err != nil {
			t.Fatal(err)
		}
	}
	sp := &splitRun{fs: fs, st: sk, runs: cfg.Runs, npaths: len(fs.Paths), stable: sk.Stable(), cont: cfg.Continue}
	return exploreWith(t, tt, cfg, st, restores, out, sum, start, nil, sp)
}

// begin sets the engine to the starting state.
func (sp *splitRun) begin(e *engine, seen map[string]bool) {
	for _, s := range sp.fs.Shared {
		e.mem.shared[s] = true
	}
	e.cfg.firstSteps = sp.fs.FirstSteps
	for _, k := range sp.fs.Seen {
		seen[k] = true
	}
}

// next moves to the next schedule to run: *schedule is the one before it.
func (sp *splitRun) next(schedule *int) bool {
	if sp.i >= len(sp.runs) {
		return false
	}
	*schedule = sp.runs[sp.i] - 1
	sp.i++
	sp.st.Seek(*schedule)
	return true
}

// ran reports the schedule just run and tells whether the process stops.
func (sp *splitRun) ran(e *engine, test string, schedule int, sum Summary, nb int, kinds []string, out *resultWriter) bool {
	e.mu.Lock()
	l := splitLine{Action: "sched", Test: test, Schedule: schedule, Steps: e.steps, Forced: e.forced, Cut: e.cut,
		Uncontrolled: e.outside, AbandonedWhy: e.outsideWait, Kinds: kinds, Bugs: sum.Bugs[nb:]}
	changed := schedule == 1 || len(sum.Bugs) > nb
	for s := range e.mem.learned {
		if !e.mem.shared[s] {
			changed = true
		}
	}
	only := schedule == 1 && e.onlySchedule()
	if schedule == 1 && e.clockRead {
		l.ClockBase = e.firstBase.UnixNano()
	}
	end := !sp.cont && endsExploration(sum.Bugs[nb:]) || e.cut && schedule == 1 || e.outsideWait != "" || only
	e.mu.Unlock()
	if len(allPaths()) != sp.npaths || !bytes.Equal(sp.st.Stable(), sp.stable) {
		changed = true
	}
	if len(sum.Bugs) > nb {
		if d, ok := sp.st.(strategy.Describer); ok {
			l.Describe = d.Describe()
		}
	}
	l.Changed, l.End, l.Only = changed, end, only
	out.write(l)
	return changed || end
}

// resetPaths forgets the goroutine path table: GIDs are numbered per test.
func resetPaths() {
	pathMu.Lock()
	defer pathMu.Unlock()
	pathIDs = map[string]strategy.GID{}
	paths = nil
}
