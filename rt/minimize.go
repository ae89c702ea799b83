//go:build go1.21

package rt

import (
	"fmt"
	"testing"
	"time"

	"github.com/period-dev/period/trace"
)

// minimizeSteps bounds the steps all candidates of one minimisation take
// together (a few seconds), whatever their number.
const minimizeSteps = 3000000

// minimizeOne shrinks the failing schedule tr (Config.Minimize): it runs
// candidate schedules with a guide (trace.Minimize says which), keeps the
// cheapest run that shows the same bug, and writes its record to
// Config.MinimizeOut. All candidates run in this process, one after the
// other, like the schedules of an exploration; the caller confirms the
// result by a strict replay in a fresh process.
func minimizeOne(t *testing.T, tt Test, cfg Config, tr *trace.Trace, restores []func()) Summary {
	start := time.Now()
	sum := Summary{Action: "summary", Package: cfg.Package, Test: tt.Name, Strategy: "minimize:" + tr.Strategy, Seed: tr.Seed, Bound: tr.Bound}
	if tr.NoRace {
		cfg.NoRace = true
	}
	// The bugs of the runs that may be the result (the first, of the
	// record itself, and the cheapest), so that the result needs no run of
	// its own to get its message (which goroutines deadlocked, the racing
	// pair). Only these records are kept: a long one is large.
	type found struct {
		rec []trace.Entry
		b   bug
	}
	var first, cheapest found
	try := func(cand []trace.Entry) []trace.Entry {
		if sum.Steps > minimizeSteps {
			// A long record: the candidate budget alone could take minutes.
			return nil
		}
		sum.Schedules++
		rec, b, ok := guidedRun(t, tt, cfg, tr, cand, restores, sum.Schedules)
		sum.Steps += len(rec)
		if !ok {
			return nil
		}
		if first.rec == nil {
			first = found{rec, b}
		}
		if cheapest.rec == nil || trace.CostOf(rec).Less(trace.CostOf(cheapest.rec)) {
			cheapest = found{rec, b}
		}
		return rec
	}
	best, _ := trace.Minimize(tr.Entries, cfg.Minimize, try)
	rec, b := best, first.b
	if len(best) > 0 && len(cheapest.rec) > 0 && &cheapest.rec[0] == &best[0] {
		b = cheapest.b
	}
	min := *tr
	min.Entries = rec
	min.Message, min.Location = b.message, b.location
	if tr.Kind == "fail" || b.kind == "" {
		// The failing test's own message and line are only known outside
		// (the runner reads them from the test's output): keep the record's,
		// as when no candidate reproduced the bug.
		min.Message, min.Location = tr.Message, tr.Location
	}
	path := cfg.MinimizeOut
	if err := min.WriteFile(path); err != nil {
		path = "(minimised replay file not written: " + err.Error() + ")"
	}
	sum.Bugs = []BugReport{{Kind: min.Kind, Schedule: tr.Schedule, Message: min.Message, Location: min.Location, Replay: path, Created: b.created, CreatedBy: b.createdBy}}
	sum.Elapsed = time.Since(start).Seconds()
	e := eng
	e.replay = nil
	return sum
}

// guidedRun runs the test once following cand and tells whether the bug of
// tr (same kind and, but for failed tests, same location) happened, with
// the record of the steps taken up to it.
func guidedRun(t *testing.T, tt Test, cfg Config, tr *trace.Trace, cand []trace.Entry, restores []func(), n int) ([]trace.Entry, bug, bool) {
	e := eng
	// A candidate may take longer than the record before it fails; far
	// longer is not the bug sought.
	cfg.MaxSteps = 2*len(tr.Entries) + 1000
	rep := &replayer{t: tr, guide: trace.NewGuide(cand)}
	e.startReplay(cfg, rep, restores)
	// Each race is reported once per process; every candidate must be
	// able to show the race sought again.
	e.race.seen = map[[2]string]bool{}
	e.mu.Unlock()
	t.Run(fmt.Sprintf("%s/m%d", tt.Name, n), func(t *testing.T) {
		e.run(t, func() { tt.F(t) })
	})
	e.mu.Lock()
	defer e.mu.Unlock()
	e.replay = nil
	for _, b := range e.bugs {
		if b.kind == tr.Kind && (b.location == tr.Location || tr.Kind == "fail") {
			return e.entries(b.upTo), b, true
		}
	}
	return e.entries(0), bug{}, false
}
