//go:build go1.21

package rt

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/period-dev/period/trace"
)

// replayer follows a recorded interleaving step by step. It never consults a
// strategy; if the program offers something else than the record at some
// point, the run has diverged (nondeterminism Period does not control), and
// the replay says where instead of pretending.
type replayer struct {
	t        *trace.Trace
	pos      int
	diverged string
	// guide, when set, follows a minimisation candidate instead of the
	// record: it never diverges (see trace.Guide); t names the bug sought.
	guide *trace.Guide
	enBuf []trace.Entry
	// waitPos and waitFrom: the entry whose goroutine the replay waits for
	// while it runs outside control (waitForDetached), and since when.
	waitPos  int
	waitFrom time.Time
}

// replayWait is next's answer when the recorded goroutine may still come
// back from outside control: nobody runs until it (or a timer) decides.
const replayWait = -2

func (r *replayer) diverge(e *engine, msg string) int {
	if r.diverged == "" {
		r.diverged = msg
	}
	e.stop()
	return -1
}

func (r *replayer) next(e *engine, enabled []*gstate) int {
	if r.guide != nil {
		if r.t.Kind != "fail" && r.sawRecordedBug(e) {
			// The bug sought happened: the rest of the run cannot make it
			// cheaper. A failed test is reported when it returns, so
			// that run goes on (a replay stopped earlier would not show it).
			e.stop()
			return -1
		}
		en := r.enBuf[:0]
		for _, g := range enabled {
			en = append(en, trace.Entry{G: g.path, Op: g.p.op.String()})
		}
		r.enBuf = en
		return r.guide.Next(en)
	}
	for r.pos < len(r.t.Entries) && r.t.Entries[r.pos].Choice {
		return r.diverge(e, fmt.Sprintf("entry %d: the record makes a choice where the program is at a scheduling point", r.pos+1))
	}
	if r.pos >= len(r.t.Entries) {
		if r.sawRecordedBug(e) {
			// A bug that does not end the run (a race) was recorded
			// where it happened; the record ends there, and so does the replay.
			e.stop()
			return -1
		}
		if r.t.Kind == "hang" && !strings.Contains(r.t.Message, spinningHang) {
			// A hang is declared after a number of steps that the
			// record holds (the step limit, or steps that only polled):
			// following them all is reproducing it. Not the watchdog's
			// (a goroutine that reached no key point for the hang
			// limit, in real time): a program that goes on past the
			// record did not hang again, and the watchdog reports it if
			// it does (a replay that declared a subtest's long t.Log
			// a hang confirmed it: zitadel/oidc's TestNewUserCode).
			e.report(bug{kind: "hang", message: r.t.Message, location: r.t.Location})
			e.stop()
			return -1
		}
		// Past the record: the recorded failure should have happened by now.
		return r.diverge(e, fmt.Sprintf("the program went on after the %d recorded entries", len(r.t.Entries)))
	}
	want := r.t.Entries[r.pos]
	r.pos++
	for i, g := range enabled {
		if g.path == want.G {
			if g.p.op.String() != want.Op || g.p.site != want.Site {
				return r.diverge(e, fmt.Sprintf("entry %d: expected goroutine g%s at %s %s, found it at %s %s", r.pos, want.G, want.Op, want.Site, g.p.op, g.p.site))
			}
			return i
		}
	}
	if r.waitForDetached(e) {
		r.pos--
		return replayWait
	}
	// Said only on divergence: a step among thousands of enabled
	// goroutines formatted each of them (replays ten times slower than
	// the exploration).
	offered := make([]string, 0, len(enabled))
	for _, g := range enabled {
		offered = append(offered, fmt.Sprintf("g%s %s %s", g.path, g.p.op, g.p.site))
	}
	return r.diverge(e, fmt.Sprintf("entry %d: expected goroutine g%s at %s %s, but it is not enabled; enabled: %s", r.pos, want.G, want.Op, want.Site, strings.Join(offered, ", ")))
}

// waitForDetached tells whether the replay should wait for the recorded
// goroutine instead of diverging: goroutines run outside control (blocked
// for real in network I/O, detached), and real I/O, not the schedule,
// decides when one is back at its key point. The exploration met it there
// (go-oidc's key set fetch over loopback HTTP, back before the test's
// select); the replay waits for it as long as a hang takes to declare.
func (r *replayer) waitForDetached(e *engine) bool {
	if e.detached == 0 || e.finished {
		return false
	}
	if r.waitPos != r.pos || r.waitFrom.IsZero() {
		r.waitPos, r.waitFrom = r.pos, time.Now()
		// Decide again when the wait is over, if nothing has: the
		// divergence is then reported as such, not as a run abandoned.
		time.AfterFunc(e.cfg.hangAfter, e.kickIdle)
	}
	return time.Since(r.waitFrom) < e.cfg.hangAfter
}

func (r *replayer) sawRecordedBug(e *engine) bool {
	if r.t.Kind == "fail" && e.failed != nil && e.failed() {
		// A record from free mode ends at the test's last key point;
		// the goroutine that failed it may have run on after that.
		return true
	}
	for _, b := range e.bugs {
		if b.kind == r.t.Kind && b.location == r.t.Location {
			return true
		}
	}
	return false
}

func (r *replayer) choose(e *engine, n int) int {
	if r.guide != nil {
		return r.guide.Choose(n)
	}
	if r.pos >= len(r.t.Entries) || !r.t.Entries[r.pos].Choice {
		r.diverge(e, fmt.Sprintf("entry %d: the program makes a choice among %d that the record does not have", r.pos+1, n))
		return 0
	}
	want := r.t.Entries[r.pos]
	r.pos++
	if want.N != n {
		r.diverge(e, fmt.Sprintf("entry %d: the record chooses among %d alternatives, the program offers %d", r.pos, want.N, n))
		return 0
	}
	return want.K
}

// startReplay readies the engine for one run that follows rep (a record, or
// a guided candidate): no strategy, the record's shared sites, package
// state restored. It returns with e.mu held.
func (e *engine) startReplay(cfg Config, rep *replayer, restores []func()) {
	e.cfg = config{Config: cfg, maxSteps: cfg.MaxSteps, watchdog: cfg.Watchdog, hangAfter: cfg.HangAfter}
	e.strat = nil
	e.releaser = nil
	e.replay = rep
	e.mem.shared = map[string]bool{}
	for _, s := range rep.t.Shared {
		e.mem.shared[s] = true
	}
	e.mem.frozen = true
	for _, r := range restores {
		r()
	}
	e.mu.Lock()
	e.replayBase = rep.t.ClockBase       // its clock starts where the record's did
	e.testHash = nameHash(rep.t.Test)    // the test's own random numbers (rand.go)
	e.resetRun(max(rep.t.Schedule-1, 0)) // the schedule's own random numbers (rand.go)
}

func replayOne(t *testing.T, tt Test, cfg Config, tr *trace.Trace, restores []func()) Summary {
	start := time.Now()
	sum := Summary{Action: "summary", Package: cfg.Package, Test: tt.Name, Strategy: "replay:" + tr.Strategy, Seed: tr.Seed, Bound: tr.Bound, Schedules: 1}
	e := eng
	if tr.NoRace {
		cfg.NoRace = true // as when the bug was found: a race would come first and end nothing
	}
	rep := &replayer{t: tr}
	e.startReplay(cfg, rep, restores)
	e.mu.Unlock()
	// Named like the explored schedule, so that the runner finds the
	// t.Error/t.Fatal messages the test prints (fail bugs) the same way.
	t.Run(fmt.Sprintf("%s/s%d", tt.Name, tr.Schedule), func(t *testing.T) {
		e.run(t, func() { tt.F(t) })
	})
	e.mu.Lock()
	defer e.mu.Unlock()
	sum.Steps = e.steps
	if rep.diverged != "" {
		sum.Diverged = rep.diverged
	} else if rep.pos < len(tr.Entries) {
		sum.Diverged = fmt.Sprintf("the run ended after %d of %d recorded entries", rep.pos, len(tr.Entries))
	}
	for _, b := range e.bugs {
		sum.Bugs = append(sum.Bugs, BugReport{Kind: b.kind, Schedule: tr.Schedule, Message: b.message, Location: b.location, Created: b.created, CreatedBy: b.createdBy, FailFirst: b.failFirst})
	}
	sum.Elapsed = time.Since(start).Seconds()
	e.replay = nil
	return sum
}
