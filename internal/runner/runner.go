// Package runner runs instrumented test binaries: it hands each one its
// configuration, collects the results it streams, recovers from processes
// that die in the middle of a schedule, and merges everything into one
// summary per test.
package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/period-dev/period/rt"
	"github.com/period-dev/period/trace"
)

// Binary is a built instrumented test binary and what it tests.
type Binary struct {
	Path    string   // the test executable
	Dir     string   // the package directory (the binary runs there, like go test)
	Package string   // import path
	Tests   []string // test functions in the package, in order
}

// Options configure a run of a binary.
type Options struct {
	Config   rt.Config     // passed to the process; Package, Dir, Results are filled in
	Only     string        // explore this test of the binary alone, whatever Config.Run says
	Timeout  time.Duration // the whole exploration of the binary (0: none)
	Progress func(format string, args ...any)
	// Confirm replays every verdict but races in a fresh process of the
	// binary before it is reported (see confirm).
	Confirm bool
	// Fresh explores every test with one process per schedule (see
	// exploreFresh); without it, a test whose verdict does not reproduce in
	// a fresh process is explored again that way.
	Fresh bool
	// Pool, when set, runs the tests of the binary in processes of their
	// own, as many at once as the pool allows (period test -p), and splits
	// the schedules of a seeded strategy over Workers processes (see
	// split.go). The results are those of a run without it.
	Pool    *Pool
	Workers int
	// Resume names a directory where the split exploration of each test
	// (seeded strategies) is saved after every round, and continued from
	// by a later run with the same flags (period test -resume).
	Resume string
}

// Result is the outcome for one test.
type Result struct {
	rt.Summary
	Crashes int  // schedules that killed the test process
	Fresh   bool `json:",omitempty"` // explored with one process per schedule

	// firstRuns are the schedules that ran first in a process of their
	// own, one that ran no other test (runPooled, exploreSplit), and
	// firstMissed the verdicts among them that confirm did not reproduce:
	// no earlier run of their process left state behind them.
	firstRuns   []int
	firstMissed int
	// envFailed counts the verdicts that the test's first schedule, which
	// passed, gave too when run again (failsWherePassed): exploring the
	// test again in fresh processes would meet the same machine state.
	envFailed int
	// firstClockBase: where schedule 1's clock started, when another
	// process than the bug's ran it (exploreSplit's workers), for
	// failsWherePassed.
	firstClockBase int64
}

// maxRestarts bounds how often a dying test process is restarted.
const maxRestarts = 20

// Run explores every selected test of b and returns one result per test.
func Run(ctx context.Context, b Binary, opts Options) ([]Result, error) {
	if opts.Progress == nil {
		opts.Progress = func(string, ...any) {}
	}
	work, err := os.MkdirTemp("", "period-run-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	if err := os.MkdirAll(opts.Config.OutDir, 0o755); err != nil {
		return nil, err
	}
	var deadline time.Time
	if opts.Timeout > 0 {
		deadline = time.Now().Add(opts.Timeout)
	}
	tests, err := selectTests(b.Tests, opts.Config.Run, opts.Config.Replay)
	if opts.Only != "" {
		tests, err = []string{opts.Only}, nil
	}
	if err != nil {
		return nil, err
	}
	if opts.Pool != nil && opts.Config.Replay == "" && opts.Config.Fresh == "" && opts.Config.Start == "" {
		return runPooled(ctx, b, opts, tests, deadline)
	}
	if opts.Fresh && opts.Config.Replay == "" && opts.Config.Fresh == "" {
		var out []Result
		for _, t := range tests {
			r, err := exploreFreshConfirmed(ctx, b, opts, t, deadline)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	}
	results := map[string]*Result{}
	completed := map[string]bool{}
	skips := map[string][]int{}
	remaining := tests
	for restart := 0; len(remaining) > 0; restart++ {
		cfg := opts.Config
		cfg.Package, cfg.Dir = b.Package, b.Dir
		cfg.Results = filepath.Join(work, fmt.Sprintf("results-%d.jsonl", restart))
		cfg.Run = "^(" + strings.Join(quoteAll(remaining), "|") + ")$"
		cfg.Skip = skips[remaining[0]]
		stopWatch := watchProgress(cfg.Results, cfg.Budget, startingWhat(remaining[0], cfg, b.Dir, ctx.Value(dirLockedKey{}) == b.Dir), opts.Progress)
		out, runErr := runChild(ctx, b, cfg, deadline)
		stopWatch()
		lines, err := readResults(cfg.Results)
		if errors.Is(err, fs.ErrNotExist) && runErr == nil {
			// The process ended well without running Period's driver:
			// its TestMain returned without m.Run (ClickHouse's skips
			// every test when no server is reachable), which go test
			// reports as ok.
			return nil, fmt.Errorf("%w%s", ErrTestsNotRun, lastLine(out))
		}
		if err != nil && runErr == nil {
			return nil, err
		}
		failMsgs := parseFailures(out, b.Dir)
		inFlight := ""
		flightSchedule := 0
		var flightSteps, ranBefore int64          // the steps of the test in flight in this process: its earlier schedules', and the running one's as last reported
		flightBugs := map[string][]rt.BugReport{} // found by tests this process did not summarize
		for _, l := range lines {
			switch l.Action {
			case "run":
				inFlight, flightSchedule, flightSteps, ranBefore = l.Test, l.Schedule, l.Steps, l.Steps
			case "steps":
				if l.Test == inFlight && l.Schedule == flightSchedule {
					flightSteps = ranBefore + l.Steps
				}
			case "bug":
				flightBugs[l.Test] = append(flightBugs[l.Test], l.Bug)
			case "summary":
				delete(flightBugs, l.Test)
				r := results[l.Test]
				if r == nil {
					r = &Result{}
					results[l.Test] = r
				}
				prev := r.Summary
				r.Summary = l.Summary
				mergeEarlier(&r.Summary, prev)
				enrich(&r.Summary, failMsgs)
				completed[l.Test] = true
				inFlight = ""
			}
		}
		done := 0
		for _, t := range remaining {
			if completed[t] {
				done++
			} else {
				break
			}
		}
		remaining = remaining[done:]
		if len(remaining) == 0 {
			break
		}
		if runErr == nil {
			return nil, fmt.Errorf("test process ended without results for %s", remaining[0])
		}
		if stopped := errors.Is(runErr, context.Canceled); stopped || errors.Is(runErr, errTimeout) {
			// -timeout is the exploration's budget of time, and Ctrl-C the
			// user's word, not verdicts: the schedule in flight is dropped,
			// and every test not done gets a summary of what was explored.
			why := "-timeout"
			if stopped {
				why = "an interrupt"
			}
			if inFlight != "" {
				opts.Progress("%s: stopped by %s in schedule %d", inFlight, why, flightSchedule)
			}
			for _, t := range remaining {
				r := results[t]
				if r == nil {
					r = &Result{Summary: rt.Summary{Action: "summary", Package: b.Package, Test: t, Strategy: opts.Config.Strategy, Seed: opts.Config.Seed, Bound: opts.Config.Bound}}
					results[t] = r
				}
				if t == inFlight && r.Schedules < flightSchedule-1 {
					r.Schedules = flightSchedule - 1
				}
				if t == inFlight {
					// What the test ran in this process, the schedule
					// cut short too (a test whose one schedule outlasts
					// -timeout is no silence).
					r.Steps += int(flightSteps)
				}
				r.TimedOut, r.Interrupted = !stopped, stopped
			}
			break
		}
		if inFlight == "" {
			return nil, fmt.Errorf("%w: %v\n%s", errProcessFailed, runErr, tail(out, 30))
		}
		if restart >= maxRestarts {
			return nil, fmt.Errorf("test process failed: %v\n%s", runErr, tail(out, 30))
		}
		if m := abandonedLine.FindSubmatch(out); m != nil && !errors.Is(runErr, errTimeout) {
			// rt ended a process whose test goroutine waited in code Period
			// does not control: no verdict, and the test is not explored further.
			opts.Progress("%s: schedule %d abandoned (%s)", inFlight, flightSchedule, m[2])
			r := results[inFlight]
			if r == nil {
				r = &Result{Summary: rt.Summary{Action: "summary", Package: b.Package, Test: inFlight, Strategy: opts.Config.Strategy, Seed: opts.Config.Seed, Bound: opts.Config.Bound}}
				results[inFlight] = r
			}
			// Bugs found before the process ended are on disk: they stay
			// verdicts (a run that ended with a bug and then waited for a
			// goroutine blocked for real is not abandoned).
			found := keepFlightBugs(r, flightBugs[inFlight])
			if !found[flightSchedule] {
				r.Abandoned++
				r.AbandonedWhy = string(m[2])
			}
			if r.Schedules < flightSchedule {
				r.Schedules = flightSchedule
			}
			skipTest(&remaining, inFlight)
			completed[inFlight] = true
			continue
		}
		// The process died (or timed out) in schedule flightSchedule of
		// inFlight: record that schedule, report it, and go on without it.
		kind, msg, loc := "panic", "the test process died: "+crashReason(out, runErr), crashLocation(out)
		if m := hangLine.FindSubmatch(out); m != nil {
			// rt ended a process whose test goroutine could not be unwound (exitIfStuck).
			kind, msg, loc = "hang", string(m[2]), string(m[1])
		}
		opts.Progress("%s: schedule %d killed the test process (%s); recording it and continuing", inFlight, flightSchedule, firstLine(msg))
		replay := opts.Config.Replay // replaying: the schedule is recorded already
		native := opts.Config.Strategy == "native"
		if replay == "" && !native { // a native run has no schedule to record
			replay = recordCrash(ctx, b, opts, work, inFlight, flightSchedule, skips[inFlight], kind, msg, loc)
		}
		r := results[inFlight]
		if r == nil {
			r = &Result{Summary: rt.Summary{Action: "summary", Package: b.Package, Test: inFlight, Strategy: opts.Config.Strategy, Seed: opts.Config.Seed, Bound: opts.Config.Bound}}
			results[inFlight] = r
		}
		r.Crashes++
		keepFlightBugs(r, flightBugs[inFlight])
		r.Bugs = append(r.Bugs, rt.BugReport{Kind: kind, Schedule: flightSchedule, Message: msg, Location: loc, Replay: replay})
		if r.Schedules < flightSchedule {
			r.Schedules = flightSchedule
		}
		if !opts.Config.Continue || native {
			// One bug is what was asked for (or native runs,
			// which cannot skip the run that killed the process): this test is done.
			skipTest(&remaining, inFlight)
			completed[inFlight] = true
			continue
		}
		skips[inFlight] = append(skips[inFlight], flightSchedule)
		// Restart from the test in flight; tests finished before it keep their results.
		for len(remaining) > 0 && remaining[0] != inFlight {
			remaining = remaining[1:]
		}
	}
	var out []Result
	for _, t := range tests {
		if r := results[t]; r != nil {
			out = append(out, *r)
		}
	}
	if ctx.Err() != nil {
		for i := range out {
			out[i].Interrupted = true // its verdicts cannot be confirmed now
		}
		return out, nil
	}
	confirmAll(ctx, b, opts, out, deadline)
	return out, nil
}

// confirmAll confirms the verdicts of out (Options.Confirm) and explores
// again, one process per schedule, the tests with a verdict that did not
// reproduce (first in one process alone in the directory, if only first
// runs of its processes had them: exploreAlone).
func confirmAll(ctx context.Context, b Binary, opts Options, out []Result, deadline time.Time) {
	pool := opts.Pool
	if pool == nil {
		pool = NewPool(1)
	}
	opts.Pool = nil
	if opts.Confirm && opts.Config.Replay == "" && opts.Config.Fresh == "" {
		confirm(ctx, b, opts, out)
		var wg sync.WaitGroup
		for i, r := range out {
			if r.Unconfirmed == r.envFailed || !deadline.IsZero() && time.Now().After(deadline) {
				continue
			}
			// The test is not re-runnable in one process: explore it again
			// with one process per schedule, as -fresh does (as many
			// tests at once as the pool allows).
			wg.Add(1)
			go func() {
				defer wg.Done()
				pool.Do(ctx, func() {
					if r.firstMissed == r.Unconfirmed {
						// Its verdicts are confirmed there, and explored
						// with one process per schedule if they do not
						// reproduce either (confirmAll).
						ar, err := exploreAlone(ctx, b, opts, r.Test, deadline)
						if err == nil {
							ar.Unconfirmed += r.Unconfirmed
							out[i] = ar
							return
						}
						opts.Progress("%s: %v", r.Test, err)
					}
					opts.Progress("%s: exploring again with one process per schedule (-fresh)", r.Test)
					fr, err := exploreFreshConfirmed(ctx, b, opts, r.Test, deadline)
					if err != nil {
						opts.Progress("%s: %v", r.Test, err)
						return
					}
					fr.Unconfirmed += r.Unconfirmed
					fr.Fresh = true
					out[i] = fr
				})
			}()
		}
		wg.Wait()
	}
}

// exploreAlone explores test again in one process, alone in the package
// directory and after the tests go test runs before it, its verdicts
// confirmed. It is for a test whose verdicts that did not reproduce so all
// came from the first run of a process of its own (-p): no earlier run left
// state behind them, so one process per schedule would not help; a test
// of the package beside it, or the tests before it missing, caused them,
// and running as go test runs each test does (go-kit's NATS tests all
// listen on one fixed port: beside each other, all but one fail at their
// first schedule). A verdict that does not reproduce there either sends
// the test on to one process per schedule (confirmAll).
func exploreAlone(ctx context.Context, b Binary, opts Options, test string, deadline time.Time) (Result, error) {
	ctx, unlock := holdDir(ctx, b.Dir)
	defer unlock()
	opts.Progress("%s: exploring again in one process, alone in the package directory", test)
	o := opts
	o.Pool, o.Fresh, o.Workers, o.Resume = nil, false, 1, ""
	o.Config.Run, o.Only = "^"+regexp.QuoteMeta(test)+"$", test
	o.Config.Prelude = TestsBefore(b.Tests, opts.Config.Selection, test) // as the confirmation ran it
	if !deadline.IsZero() {
		if o.Timeout = time.Until(deadline); o.Timeout <= 0 {
			return Result{}, errTimeout
		}
	}
	rs, err := Run(ctx, b, o)
	if err != nil {
		return Result{}, err
	}
	if len(rs) != 1 {
		return Result{}, fmt.Errorf("exploring alone gave %d results", len(rs))
	}
	return rs[0], nil
}

// exploreFreshConfirmed explores test with one process per schedule and
// confirms its verdicts (confirm). Its processes run the test alone, as
// go test -run '^Test$' does: running first the tests go test runs before
// it, natively, would cost each schedule their time (seconds, and
// minutes in suites of hundreds of tests or with real sleeps). A test
// written to run after them (a fixture they advance) then fails at once:
// its verdict does not reproduce where they ran first (the confirmation),
// and the test is explored again with every process running them first.
// Both explorations run alone in the package directory, as go test runs
// one test at a time: a verdict that did not reproduce alone may have come
// from a test beside it (toxiproxy's API tests each start a server on the
// fixed port 8475), and so would the next.
func exploreFreshConfirmed(ctx context.Context, b Binary, opts Options, test string, deadline time.Time) (Result, error) {
	r, err := exploreFreshAlone(ctx, b, opts, test, deadline, false)
	if err != nil || !opts.Confirm || ctx.Err() != nil {
		return r, err
	}
	// Its processes ran beside others of the package (-p) and without the
	// tests before it: a verdict is reported once a replay alone in the
	// directory, after those tests, shows it too.
	rs := []Result{r}
	confirm(ctx, b, opts, rs)
	r = rs[0]
	if r.Unconfirmed == 0 || len(TestsBefore(b.Tests, opts.Config.Selection, test)) == 0 || !deadline.IsZero() && time.Now().After(deadline) {
		return r, nil
	}
	opts.Progress("%s: exploring again with one process per schedule, each running first the tests go test runs before it", test)
	fr, err := exploreFreshAlone(ctx, b, opts, test, deadline, true)
	if err != nil {
		return r, err
	}
	if ctx.Err() == nil {
		rs := []Result{fr}
		confirm(ctx, b, opts, rs)
		fr = rs[0]
	}
	fr.Unconfirmed += r.Unconfirmed
	return fr, nil
}

// exploreFreshAlone is exploreFresh holding the directory's lock: no
// other test process of the package runs meanwhile.
func exploreFreshAlone(ctx context.Context, b Binary, opts Options, test string, deadline time.Time, prelude bool) (Result, error) {
	ctx, unlock := holdDir(ctx, b.Dir)
	defer unlock()
	return exploreFresh(ctx, b, opts, test, deadline, prelude)
}

// exploreFresh explores test with one process per schedule: each schedule
// runs the test for the first time in its process, as go test -count=1
// does, and the exploration moves from process to process through a state
// file (rt.Config.Fresh). The schedules are the ones one long process
// would run. With prelude, each process first runs the tests go test runs
// before test (Config.Prelude). Its verdicts need no confirmation against
// state earlier runs left, but processes of other tests of the package may
// have run beside it: callers confirm them alone in the directory.
func exploreFresh(ctx context.Context, b Binary, opts Options, test string, deadline time.Time, prelude bool) (Result, error) {
	work, err := os.MkdirTemp("", "period-fresh-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(work)
	o := opts
	o.Confirm, o.Fresh, o.Pool = false, false, nil
	o.Config.Fresh = filepath.Join(work, "state.json")
	o.Config.Parallel = false
	o.Config.Run, o.Only = "^"+regexp.QuoteMeta(test)+"$", test
	o.Config.Prelude = nil
	if prelude {
		o.Config.Prelude = TestsBefore(b.Tests, opts.Config.Selection, test)
	}
	start := time.Now()
	total := Result{Summary: rt.Summary{Action: "summary", Package: b.Package, Test: test, Strategy: o.Config.Strategy, Seed: o.Config.Seed, Bound: o.Config.Bound}, Fresh: true}
	for {
		if !deadline.IsZero() {
			o.Timeout = time.Until(deadline)
			if o.Timeout <= 0 {
				total.TimedOut = true // the summary says the budget was not explored
				break
			}
		}
		rs, err := Run(ctx, b, o)
		if err != nil {
			return total, err
		}
		if len(rs) == 0 {
			break
		}
		r := rs[0]
		advanced := r.Schedules > total.Schedules
		addFresh(&total, r)
		if !advanced || r.Exhausted || total.Schedules >= o.Config.Budget || r.Abandoned > 0 ||
			r.Cut > 0 && total.Schedules == 1 || !o.Config.Continue && endsExploration(total.Bugs) {
			break
		}
		if total.Schedules%100 == 0 {
			opts.Progress("%s: %d schedules in fresh processes", test, total.Schedules)
		}
	}
	total.Elapsed = time.Since(start).Seconds()
	return total, nil
}

// addFresh adds the result of one fresh process to the exploration's total.
func addFresh(total *Result, r Result) {
	total.Schedules = max(total.Schedules, r.Schedules)
	total.Steps += r.Steps
	total.Forced += r.Forced
	total.Cut += r.Cut
	total.Uncontrolled += r.Uncontrolled
	total.Unconfirmed += r.Unconfirmed
	total.Crashes += r.Crashes
	total.Exhausted = r.Exhausted
	total.TimedOut = total.TimedOut || r.TimedOut
	total.Interrupted = total.Interrupted || r.Interrupted
	if r.Abandoned > 0 {
		total.Abandoned += r.Abandoned
		total.AbandonedWhy = r.AbandonedWhy
	}
	for k, n := range r.Buggy {
		if total.Buggy == nil {
			total.Buggy = map[string]int{}
		}
		total.Buggy[k] += n
	}
	if total.Schedule == "" && len(r.Bugs) > 0 {
		total.Schedule = r.Schedule
	}
	// Each process reports only bugs the state file had not seen yet.
	total.Bugs = append(total.Bugs, r.Bugs...)
}

// endsExploration tells whether bugs end an exploration without -continue
// (races do not), as rt decides it.
func endsExploration(bugs []rt.BugReport) bool {
	for _, b := range bugs {
		if b.Kind != "race" {
			return true
		}
	}
	return false
}

// confirm replays each verdict (races aside: they do not end an
// exploration and replay in place) in a new process, where the test runs
// for the first time. Exploring runs a test again and again in one process,
// as go test -count=N does, and many suites are not written for that (a
// registry filled by the previous run, a package-level counter): a verdict
// that a fresh process does not reproduce came from state an earlier run
// left behind, and is counted in Unconfirmed instead of reported.
func confirm(ctx context.Context, b Binary, opts Options, rs []Result) {
	for i := range rs {
		r := &rs[i]
		var kept []rt.BugReport
		for _, bug := range r.Bugs {
			if bug.Kind != "race" {
				// A replay can take as long as its schedule did (up to two
				// minutes): say what the process is doing meanwhile.
				opts.Progress("%s: confirming the %s of schedule %d in a fresh process", r.Test, bug.Kind, bug.Schedule)
			}
			if bug.Kind == "race" {
				kept = append(kept, bug)
				continue
			}
			// First, while the state an earlier schedule left (a port in
			// TIME_WAIT for a minute) is still there: a replay runs the
			// tests go test runs before it first, which takes a while.
			if bug.ClockRead && bug.FirstClockBase == 0 {
				bug.FirstClockBase = r.firstClockBase
			}
			if failsWherePassed(ctx, b, opts, r.Test, bug) {
				r.Unconfirmed++
				r.envFailed++
				opts.Progress("%s: the %s of schedule %d came after a first schedule that passed, and that schedule now fails the same way, at the same place, in a fresh process: the machine's state (a port still in use from an earlier run, a file left behind), not the schedule, fails it; not reported (replay file kept: %s)", r.Test, bug.Kind, bug.Schedule, bug.Replay)
				continue
			}
			if reproduced(ctx, b, opts, r.Test, bug) {
				kept = append(kept, bug)
				continue
			}
			r.Unconfirmed++
			if slices.Contains(r.firstRuns, bug.Schedule) {
				r.firstMissed++
			}
			what := strings.Join(strings.Fields(bug.Message), " ")
			if len(what) > 200 {
				what = what[:200] + "..."
			}
			opts.Progress("%s: the %s of schedule %d (%s) did not reproduce in a fresh process with no other test process running (state left by earlier runs, or another test's process beside it): not reported", r.Test, bug.Kind, bug.Schedule, what)
		}
		r.Bugs = kept
	}
}

// failsWherePassed tells whether the exploration's first schedule, which
// passed, now fails the same way (kind and place) in a fresh process alone
// in the package directory, running the test alone as the exploring
// process did.
// Exploring runs a test again and again, and state that outlives a process
// then fails it whatever the schedule: a server's fixed port still in
// TIME_WAIT after the previous schedule closed it (panjf2000/gnet's
// TestShutdown, "bind: address already in use"; go test -count=2 fails it
// too). A fresh process's replay reproduces such a verdict, so the replay
// alone cannot tell; a schedule that passed and fails now, replayed as
// exactly, can. Only fails and panics found after a first schedule that
// passed: a test that fails from its first schedule on is reported as it is.
func failsWherePassed(ctx context.Context, b Binary, opts Options, test string, bug rt.BugReport) bool {
	if bug.Kind != "fail" && bug.Kind != "panic" || bug.Location == "" || bug.Schedule <= 1 || opts.Config.Parallel {
		// (-parallel ran schedule 1's last period free: run again
		// serially, it is another schedule.)
		return false
	}
	tr, err := trace.ReadFile(bug.Replay)
	if err != nil {
		return false
	}
	work, err := os.MkdirTemp("", "period-first-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(work)
	cfg := opts.Config
	cfg.Strategy, cfg.Seed, cfg.Bound = tr.Strategy, tr.Seed, tr.Bound
	cfg.Budget, cfg.Continue, cfg.Replay, cfg.Fresh, cfg.Start, cfg.Runs, cfg.StateOut = 1, false, "", "", "", nil, ""
	cfg.Minimize, cfg.MinimizeOut, cfg.Skip, cfg.TraceRun = 0, "", nil, 0
	cfg.Run, cfg.OutDir, cfg.Parallel = "^"+regexp.QuoteMeta(test)+"$", work, false
	cfg.Prelude = nil // as the exploring process ran it
	if bug.ClockRead {
		// Schedule 1 as it ran: a test that seeds randomness with the
		// clock draws what it drew then (testdata/timeseed), not a
		// number that fails by chance, one time in eight there.
		cfg.FirstClockBase = bug.FirstClockBase
	}
	lctx, unlock := holdAlone(ctx, b.Dir)
	res, err := Run(lctx, b, Options{Config: cfg, Timeout: 2 * time.Minute})
	unlock()
	if err != nil {
		return false
	}
	for _, x := range res {
		for _, xb := range x.Bugs {
			if x.Test == test && xb.Schedule == 1 && xb.Kind == bug.Kind && xb.Location == bug.Location {
				return true
			}
		}
	}
	return false
}

// reproduced replays bug's file in a fresh process and tells whether the
// same kind of bug happened. When it cannot tell (no file, an error), the
// verdict stands. A bug that does not come back is replayed once more with
// the virtual clock starting where the run's did (BugReport.ClockBase): a
// program that seeds randomness with time.Now().UnixNano() draws the same
// numbers then (lestrrat-go/backoff's jitter test), and the replay file
// keeps that instant if it was needed. A bug whose run read the clock
// (BugReport.ClockRead) is replayed from that instant first: a replay
// from another instant can reproduce it by chance and leave a file that
// does not replay. Others' files stay free of it, so runs with -p, -shard
// and -resume write the same bytes for programs that do not read the clock.
func reproduced(ctx context.Context, b Binary, opts Options, test string, bug rt.BugReport) bool {
	tr, err := trace.ReadFile(bug.Replay)
	if err != nil {
		return true
	}
	if bug.ClockRead && bug.ClockBase != 0 && tr.ClockBase.IsZero() {
		// The program read the clock: a replay from elsewhere may draw
		// other numbers and still reproduce by chance (one seed in eight
		// for testdata/timeseed), leaving a file that then fails to
		// replay. The run's own instant first.
		tr.ClockBase = time.Unix(0, bug.ClockBase)
		if tr.WriteFile(bug.Replay) == nil && replayedAlone(ctx, b, opts, test, bug, tr, true) {
			return true
		}
		tr.ClockBase = time.Time{}
		tr.WriteFile(bug.Replay) // as it was: the instant did not bring it back
	}
	if replayedAlone(ctx, b, opts, test, bug, tr, false) {
		return true
	}
	if bug.ClockRead || bug.ClockBase == 0 || !tr.ClockBase.IsZero() {
		return false
	}
	tr.ClockBase = time.Unix(0, bug.ClockBase)
	if tr.WriteFile(bug.Replay) != nil {
		return false
	}
	if replayedAlone(ctx, b, opts, test, bug, tr, true) {
		return true
	}
	tr.ClockBase = time.Time{}
	tr.WriteFile(bug.Replay) // as it was: the instant did not matter
	return false
}

// replayedAlone is reproduced's replay of tr, bug's record. strict is the
// replay from the run's clock base, after one that did not reproduce: an
// error or a divergence is then no confirmation, and the bug must come
// back where it was (the same location), not only of the same kind, since
// instants the replaying process read at init are later than that base
// and a test comparing them can fail elsewhere.
func replayedAlone(ctx context.Context, b Binary, opts Options, test string, bug rt.BugReport, tr *trace.Trace, strict bool) bool {
	work, err := os.MkdirTemp("", "period-confirm-")
	if err != nil {
		return !strict
	}
	defer os.RemoveAll(work)
	cfg := rt.Config{Replay: bug.Replay, Strategy: tr.Strategy, Seed: tr.Seed, Bound: tr.Bound, OutDir: work,
		MaxSteps: len(tr.Entries) + 1000, NoRace: opts.Config.NoRace, Leaks: opts.Config.Leaks, IgnoreLeak: opts.Config.IgnoreLeak,
		Prelude: TestsBefore(b.Tests, opts.Config.Selection, test), Args: opts.Config.Args}
	lctx, unlock := holdAlone(ctx, b.Dir) // before Run: waiting is not part of its time limit
	res, err := Run(lctx, b, Options{Config: cfg, Timeout: 2 * time.Minute})
	unlock()
	if err != nil {
		return !strict
	}
	diverged := false
	for _, x := range res {
		if x.Test != test {
			continue
		}
		if x.Diverged != "" {
			diverged = true
			continue
		}
		for _, xb := range x.Bugs {
			if xb.Kind == bug.Kind && (!strict || xb.Location == bug.Location) {
				return true
			}
		}
	}
	if diverged && !strict && bug.Schedule <= freshRecheckMax {
		// The replay left the recorded path: real I/O decides where the
		// goroutines of a networked test are (gRPC's transports), so
		// the replay cannot tell. The exploration itself runs again up to
		// that schedule, in fresh processes alone in the directory.
		o := Options{Config: opts.Config, Progress: func(string, ...any) {}}
		o.Config.Strategy, o.Config.Seed, o.Config.Bound = tr.Strategy, tr.Seed, tr.Bound
		o.Config.Budget, o.Config.Continue = bug.Schedule, true
		lctx, unlock := holdAlone(ctx, b.Dir)
		fr, err := exploreFresh(lctx, b, o, test, time.Now().Add(2*time.Minute), true)
		unlock()
		if err != nil {
			return true
		}
		for _, xb := range fr.Bugs {
			if xb.Kind == bug.Kind && xb.Schedule == bug.Schedule {
				return true
			}
		}
	}
	return false
}

// freshRecheckMax: a verdict whose replay diverged is checked by exploring
// again in fresh processes when it came at most this many schedules in (one
// process each).
const freshRecheckMax = 5

// TestsBefore lists the tests go test runs before test, in its order (the
// order of b.Tests), among those selection (the user's -run pattern, ""
// for all) selects, as go test -run runs them: a fresh process runs them
// first, so that a test written to run after them (a package-level fixture
// they advance, as in some suites) starts from the state go test gives it.
// Confirmation, minimisation and period replay all run them: a replay file
// reproduces where its verdict was confirmed (it records the selection).
func TestsBefore(tests []string, selection, test string) []string {
	sel, err := selectTests(tests, selection, "")
	if err != nil {
		sel = tests
	}
	for i, t := range sel {
		if t == test {
			return sel[:i:i]
		}
	}
	return nil
}

func skipTest(remaining *[]string, t string) {
	for len(*remaining) > 0 && (*remaining)[0] != t {
		*remaining = (*remaining)[1:]
	}
	if len(*remaining) > 0 {
		*remaining = (*remaining)[1:]
	}
}

// mergeEarlier keeps the bugs a previous (crashed) process found for the same test.
func mergeEarlier(s *rt.Summary, prev rt.Summary) {
	seen := map[string]bool{}
	for _, b := range s.Bugs {
		seen[b.Kind+"|"+b.Location] = true
	}
	for _, b := range prev.Bugs {
		if !seen[b.Kind+"|"+b.Location] {
			s.Bugs = append(s.Bugs, b)
		}
	}
}

var errTimeout = errors.New("timeout")

// progressEvery is how often a running test process is reported on.
var progressEvery = 5 * time.Second

// watchProgress reports, every progressEvery while a test process runs,
// which schedule of which test it is in (its results file says), so that a
// long exploration or one very long schedule is never silent; before the
// first schedule starts, what the process does meanwhile (starting). The
// returned function stops it.
func watchProgress(results string, budget int, starting func() string, progress func(string, ...any)) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		var off int64
		test, schedule, since := "", 0, time.Now()
		steps := int64(-1) // the running schedule's steps, when the test process said
		sub := ""          // and the subtest it was in
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			if p := readProgress(results, off); p.end > off {
				off = p.end
				if p.test != "" && (p.test != test || p.schedule != schedule) {
					test, schedule, since, steps, sub = p.test, p.schedule, time.Now(), -1, ""
				}
				if p.steps >= 0 && p.stepsTest == test && p.stepsSchedule == schedule {
					steps, sub = p.steps, p.subtest
				}
			}
			if test == "" {
				progress("%s, %.0fs so far", starting(), time.Since(start).Seconds())
				continue
			}
			ofSchedule := fmt.Sprintf("%.0fs", time.Since(since).Seconds())
			if steps >= 0 {
				ofSchedule += ", " + countSteps(steps)
			}
			if sub != "" {
				ofSchedule += ", in " + sub
			}
			progress("%s: schedule %d of at most %d, %.0fs in this process (this schedule: %s)",
				test, schedule, budget, time.Since(start).Seconds(), ofSchedule)
		}
	}()
	return func() { close(done); <-finished }
}

// startingWhat says what a test process exploring test first does, for
// watchProgress: a slow TestMain, or the tests go test runs before it
// (Config.Prelude), take real time before the first schedule, and so does
// waiting for the package directory while another test's verdict is
// replayed alone there (unless the caller holds it: locked).
func startingWhat(test string, cfg rt.Config, dir string, locked bool) func() string {
	what := "starting the test process (init, TestMain)"
	switch {
	case cfg.Replay != "":
		what = "starting the process that replays it"
	case len(cfg.Prelude) > 0:
		what = fmt.Sprintf("running first, natively, the %d test(s) go test runs before it", len(cfg.Prelude))
	}
	return func() string {
		if !locked && confirming(dir) {
			// runChild waits for the locks (lockProcess).
			return test + ": waiting while a verdict is replayed alone (no other test process runs meanwhile)"
		}
		return test + ": " + what
	}
}

// countSteps renders a number of steps for a progress line: "812 steps",
// "45.3k steps", "3.2M steps".
func countSteps(n int64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1fM steps", float64(n)/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%.1fk steps", float64(n)/1e3)
	}
	return fmt.Sprintf("%d steps", n)
}

// lastRun reads results from offset off and returns the last "run" line's
// test and schedule, and the offset up to which it read whole lines.
func lastRun(results string, off int64) (test string, schedule int, end int64) {
	p := readProgress(results, off)
	return p.test, p.schedule, p.end
}

// runProgress is what readProgress found: the last "run" line, the last
// "steps" line (steps -1: none) and the offset up to which it read.
type runProgress struct {
	test, stepsTest, subtest string
	schedule, stepsSchedule  int
	steps, end               int64
}

// readProgress reads results from offset off: the last "run" line's test
// and schedule, the last "steps" line, and the offset up to which it read
// whole lines.
func readProgress(results string, off int64) runProgress {
	p := runProgress{steps: -1, end: off}
	f, err := os.Open(results)
	if err != nil {
		return p
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return p
	}
	data, _ := io.ReadAll(f)
	end := off
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break // a line still being written
		}
		line := data[:i]
		data = data[i+1:]
		end += int64(i + 1)
		var l struct {
			Action, Test, Subtest string
			Schedule              int
			Steps                 int64
		}
		if json.Unmarshal(line, &l) != nil {
			continue
		}
		switch l.Action {
		case "run":
			p.test, p.schedule = l.Test, l.Schedule
		case "steps":
			p.stepsTest, p.stepsSchedule, p.steps, p.subtest = l.Test, l.Schedule, l.Steps, l.Subtest
		}
	}
	p.end = end
	return p
}

// dirLocks holds a lock per package directory. Test processes of one
// package run there at once (period test -p: tests and shares of a test's
// schedules in processes of their own), where go test runs one test at a
// time: tests that use fixed file names in the directory (a database file,
// a log) can disturb each other. A replay that confirms a verdict runs
// alone in its directory, so that a verdict only such a disturbance caused
// is not confirmed (tidwall/buntdb's "data.db").
var dirLocks sync.Map // directory -> *sync.RWMutex

// aloneLock is the lock of the whole run: every test process holds it
// shared, a confirming replay exclusively, after its directory's lock.
// Packages are explored at once too, and tests of two packages can share
// what is outside either directory (osrg/gobgp's server and metrics tests
// listen on one fixed port): a confirming replay beside another package's
// process reproduced a "bind: address already in use" that go test, which
// runs each package's tests in a few seconds, does not see.
var aloneLock sync.RWMutex

// confirmingIn counts, per directory, the replays that hold or wait for
// its lock exclusively: a test process waiting for the lock says so.
var confirmingIn sync.Map // directory -> *atomic.Int32

// confirmingAny counts the replays that hold or wait for aloneLock.
var confirmingAny atomic.Int32

// confirming tells whether a replay holds or waits for dir's lock, or the
// run's.
func confirming(dir string) bool {
	n, ok := confirmingIn.Load(dir)
	return ok && n.(*atomic.Int32).Load() > 0 || confirmingAny.Load() > 0
}

// dirLockedKey marks a context whose caller holds its directory's lock
// exclusively (a confirming replay, an exploration alone in the
// directory): its processes take no directory lock.
type dirLockedKey struct{}

// aloneKey marks a context whose caller holds aloneLock exclusively (a
// confirming replay): its processes take no lock at all.
type aloneKey struct{}

// holdDir takes dir's lock exclusively, unless ctx says its caller holds
// it already, and returns the context that says so.
func holdDir(ctx context.Context, dir string) (context.Context, func()) {
	if ctx.Value(dirLockedKey{}) == dir {
		return ctx, func() {}
	}
	unlock := lockDir(dir, true)
	return context.WithValue(ctx, dirLockedKey{}, dir), unlock
}

// holdAlone takes dir's lock and then the run's exclusively, for a replay
// that confirms a verdict: no other test process runs meanwhile, of this
// package or another. Directory first, as every process takes them, so
// that no two callers wait for each other.
func holdAlone(ctx context.Context, dir string) (context.Context, func()) {
	ctx, unlockDir := holdDir(ctx, dir)
	if ctx.Value(aloneKey{}) != nil {
		return ctx, unlockDir
	}
	confirmingAny.Add(1)
	aloneLock.Lock()
	return context.WithValue(ctx, aloneKey{}, true), func() {
		aloneLock.Unlock()
		confirmingAny.Add(-1)
		unlockDir()
	}
}

// lockProcess takes, for one test process, what its context does not
// hold already: dir's lock shared, then the run's shared.
func lockProcess(ctx context.Context, dir string) (unlock func()) {
	if ctx.Value(aloneKey{}) != nil {
		return func() {}
	}
	unlockDir := func() {}
	if ctx.Value(dirLockedKey{}) != dir {
		unlockDir = lockDir(dir, false)
	}
	aloneLock.RLock()
	return func() {
		aloneLock.RUnlock()
		unlockDir()
	}
}

// lockDir takes the lock of dir: shared for an exploration, exclusive for
// a confirming replay.
func lockDir(dir string, exclusive bool) (unlock func()) {
	l, _ := dirLocks.LoadOrStore(dir, new(sync.RWMutex))
	mu := l.(*sync.RWMutex)
	if exclusive {
		n, _ := confirmingIn.LoadOrStore(dir, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		mu.Lock()
		return func() {
			mu.Unlock()
			n.(*atomic.Int32).Add(-1)
		}
	}
	mu.RLock()
	return mu.RUnlock
}

// outFilter keeps a test process's output without the lines package
// testing prints for every schedule's subtest (-test.v): a "--- PASS" line
// for each, and of the "=== RUN" (PAUSE, CONT, NAME) lines in a row only
// the last, which says whose output follows. A million schedules are then
// not a million lines kept and parsed.
type outFilter struct {
	buf     bytes.Buffer
	partial []byte // a line not ended yet
	header  []byte // the last "=== " line, not kept until output follows it
}

func (o *outFilter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			o.partial = append(o.partial, p...)
			break
		}
		line := p[:i+1]
		if len(o.partial) > 0 {
			line = append(o.partial, line...)
			o.partial = o.partial[:0]
		}
		o.line(line)
		p = p[i+1:]
	}
	return n, nil
}

func (o *outFilter) line(l []byte) {
	t := bytes.TrimLeft(l, " ")
	switch {
	case bytes.HasPrefix(t, []byte("--- PASS: TestPeriodDriver/")):
	case bytes.HasPrefix(l, []byte("=== ")) && bytes.Contains(l, []byte(" TestPeriodDriver/")):
		o.header = append(o.header[:0], l...)
	default:
		if len(o.header) > 0 {
			o.buf.Write(o.header)
			o.header = o.header[:0]
		}
		o.buf.Write(l)
	}
}

// done returns what was kept, with a last line not ended by a newline.
func (o *outFilter) done() bytes.Buffer {
	if len(o.partial) > 0 {
		o.line(o.partial)
		o.partial = nil
	}
	return o.buf
}

// maxEnvConfig bounds the configuration passed in the environment.
const maxEnvConfig = 64 << 10

// runChild runs the binary once with cfg and returns its combined output.
func runChild(ctx context.Context, b Binary, cfg rt.Config, deadline time.Time) ([]byte, error) {
	defer lockProcess(ctx, b.Dir)()
	js, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	cctx := ctx
	var cancel context.CancelFunc = func() {}
	if !deadline.IsZero() {
		cctx, cancel = context.WithDeadline(ctx, deadline)
	}
	defer cancel()
	var env []string
	if len(js) < maxEnvConfig {
		env = append(os.Environ(), "PERIOD_CONFIG="+string(js))
	} else {
		// Linux refuses an environment string over 128 KiB (a split
		// worker's schedules of a large budget): the file carries it.
		f, err := os.CreateTemp("", "period-config-*.json")
		if err != nil {
			return nil, err
		}
		defer os.Remove(f.Name())
		_, err = f.Write(js)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		env = append(os.Environ(), "PERIOD_CONFIG_FILE="+f.Name())
	}
	var parallel []string
	if cfg.Procs > 0 && os.Getenv("GOMAXPROCS") == "" {
		env = append(env, "GOMAXPROCS="+strconv.Itoa(cfg.Procs))
		// -test.parallel stays what go test would give (GOMAXPROCS), not
		// the worker's share: parallel subtests that need each other run
		// at once as they would (a -test.parallel of -args comes after).
		parallel = []string{"-test.parallel=" + strconv.Itoa(runtime.GOMAXPROCS(0))}
	}
	var out outFilter
	var cmd *exec.Cmd
	for try := 1; ; try++ {
		// The test binary's own arguments follow its -test. flags, as
		// go test -args puts them.
		args := append([]string{"-test.run=^TestPeriodDriver$", "-test.count=1", "-test.v", "-test.timeout=0"}, parallel...)
		args = append(args, cfg.Args...)
		cmd = exec.CommandContext(cctx, b.Path, args...)
		cmd.Dir, cmd.Env = b.Dir, env
		cmd.Stdout, cmd.Stderr = &out, &out
		// A process the test started and left running (air's runner
		// tests start the program they built) keeps the test process's
		// output pipe open after it exits: Wait would wait for it for
		// ever, through SIGTERM too. What it writes after is not ours.
		cmd.WaitDelay = orphanOutputWait
		err = cmd.Start()
		// "text file busy": a process forked elsewhere in period (another
		// package's build or test, -p) still held the binary open for
		// writing when this one was exec'd; the go command retries too.
		if err == nil || !errors.Is(err, syscall.ETXTBSY) || try == 20 {
			break
		}
		time.Sleep(time.Duration(try) * 10 * time.Millisecond)
	}
	if err == nil {
		err = cmd.Wait()
		if errors.Is(err, exec.ErrWaitDelay) {
			err = nil // the test process exited well; a child of its own kept the pipe
		}
	}
	buf := out.done()
	if cctx.Err() == context.DeadlineExceeded {
		return buf.Bytes(), errTimeout
	}
	if interruptedBySignal(err) {
		// Ctrl-C or a SIGTERM to the process group (timeout, a CI limit)
		// reached the test process too, maybe before period's own handler
		// canceled ctx: that is the user's stop, not a crash of the test.
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	if ctx.Err() != nil {
		return buf.Bytes(), ctx.Err()
	}
	if err != nil {
		// The driver test "fails" whenever a schedule failed: that is normal.
		// Only a missing summary (checked by the caller) means trouble.
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 && bytes.Contains(buf.Bytes(), []byte("--- FAIL: TestPeriodDriver")) {
			return buf.Bytes(), nil
		}
		return buf.Bytes(), err
	}
	return buf.Bytes(), nil
}

// orphanOutputWait is how long, after a test process exits, its output is
// still read from processes it left behind: go test's least (its
// testWaitDelay, a tenth of -timeout, at least 5 s).
const orphanOutputWait = 5 * time.Second

// interruptedBySignal tells whether err is the exit of a process killed by
// SIGINT or SIGTERM (Period itself ends its test processes with SIGKILL).
func interruptedBySignal(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && (ws.Signal() == syscall.SIGINT || ws.Signal() == syscall.SIGTERM)
}

// resultLine is one line of the results stream: progress ("run", naming the
// schedule in flight) or a test's "summary".
type resultLine struct {
	Action   string
	Test     string
	Schedule int   // "run": the schedule starting; "steps": the schedule running
	Steps    int64 // "steps": its steps so far; "run": the test's earlier schedules' in this process
	Summary  rt.Summary
	Bug      rt.BugReport // "bug": written as found, before the test's summary
}

// keepFlightBugs adds to r the bugs a test process wrote before it ended
// without the test's summary, and returns the schedules they were found in.
func keepFlightBugs(r *Result, bugs []rt.BugReport) map[int]bool {
	found := map[int]bool{}
	for _, b := range bugs {
		found[b.Schedule] = true
		dup := false
		for _, have := range r.Bugs {
			if have.Schedule == b.Schedule && have.Kind == b.Kind && have.Location == b.Location {
				dup = true
			}
		}
		if !dup {
			r.Bugs = append(r.Bugs, b)
		}
	}
	return found
}

func readResults(path string) ([]resultLine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var lines []resultLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var head struct {
			Action string
			Test   string
		}
		if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
			continue // a line cut short by a dying process
		}
		l := resultLine{Action: head.Action, Test: head.Test}
		switch head.Action {
		case "summary":
			if json.Unmarshal(sc.Bytes(), &l.Summary) != nil {
				continue
			}
		case "run", "steps":
			var p struct {
				Schedule int
				Steps    int64
			}
			json.Unmarshal(sc.Bytes(), &p)
			l.Schedule, l.Steps = p.Schedule, p.Steps
		case "bug":
			if json.Unmarshal(sc.Bytes(), &l.Bug) != nil {
				continue
			}
		}
		lines = append(lines, l)
	}
	return lines, sc.Err()
}

var (
	// Subtests of a schedule run as TestPeriodDriver/TestX/sN/sub: their
	// lines belong to schedule N too (group 3 is the subtest's path).
	runLine       = regexp.MustCompile(`^=== (?:RUN|NAME|CONT)\s+TestPeriodDriver/([^/]+)/s(\d+)(?:/(\S+))?$`)
	logLine       = regexp.MustCompile(`^(\s+)([^\s:]+\.go):(\d+): (.*)$`)
	nativeRunLine = regexp.MustCompile(`^=== (?:RUN|NAME|CONT)\s+TestPeriodDriver/[^/]+$`)
	failLine      = regexp.MustCompile(`^\s*--- FAIL: TestPeriodDriver/([^/]+)/s(\d+)(?:/(\S+))? `)
	testLine      = regexp.MustCompile(`^\s*(=== (RUN|NAME|CONT|PAUSE) |--- (FAIL|PASS|SKIP): )`)
)

type failKey struct {
	test     string
	schedule int
}

type failMsg struct {
	location string
	text     []string
	locs     []string // each text's location (a message has one line of log output)
	msgs     []string // each text's message, without its location
}

// parseFailures collects, per schedule, the t.Error/t.Fatal lines package
// testing printed (the test process cannot read them back itself), each with
// its continuation lines: testing prints a message's later lines indented
// four more spaces than its first (testify's assertions put all their text
// there, after an empty first line).
func parseFailures(out []byte, dir string) map[failKey]*failMsg {
	msgs := map[failKey]*failMsg{}
	var cur failKey
	var sub string       // the subtest of cur printing, if any
	var last *failMsg    // the message whose continuation lines may follow
	var printed []string // the last lines the current schedule printed
	var more string      // their indentation
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		if last != nil && strings.HasPrefix(line, more) && !testLine.MatchString(line) {
			last.text[len(last.text)-1] += "\n" + strings.TrimPrefix(line, more)
			if len(last.msgs) == len(last.text) {
				last.msgs[len(last.msgs)-1] += "\n" + strings.TrimPrefix(line, more)
			}
			continue
		}
		last = nil
		if m := runLine.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			if k := (failKey{m[1], n}); k != cur {
				printed = printed[:0]
			}
			cur, sub = failKey{m[1], n}, m[3]
			continue
		}
		if nativeRunLine.MatchString(line) {
			// A test run natively before the explored one
			// (rt.Config.Prelude): what it prints is nobody's verdict.
			cur, sub, printed = failKey{}, "", printed[:0]
			continue
		}
		if m := failLine.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			cur, sub = failKey{m[1], n}, m[3]
			if sub == "" && msgs[cur] == nil && len(printed) > 0 {
				// Failed without a t.Error line (an assert helper that
				// prints, then calls t.FailNow): what it printed says why.
				msgs[cur] = &failMsg{text: []string{"the test failed after printing:\n" + strings.Join(printed, "\n")}}
			}
			printed = printed[:0]
			continue
		}
		if m := logLine.FindStringSubmatch(line); m != nil && cur.test != "" {
			f := msgs[cur]
			if f == nil {
				f = &failMsg{location: packageLoc(dir, m[2]) + ":" + m[3]}
				msgs[cur] = f
			}
			text := m[2] + ":" + m[3] + ": " + m[4]
			if sub != "" { // named as go test names it: TestX/sub
				text = cur.test + "/" + sub + ": " + text
			}
			f.text = append(f.text, text)
			f.locs = append(f.locs, packageLoc(dir, m[2])+":"+m[3])
			f.msgs = append(f.msgs, m[4])
			last, more = f, m[1]+"    "
			continue
		}
		if t := strings.TrimSpace(ansiEscape.ReplaceAllString(line, "")); cur.test != "" && t != "" && !testLine.MatchString(line) {
			if len(printed) == maxPrinted {
				printed = append(printed[:0], printed[1:]...)
			}
			printed = append(printed, t)
		}
	}
	return msgs
}

// maxPrinted: how many of the last lines a failing schedule printed its
// report shows, when the test gave no t.Error message. Ginkgo prints a
// failure's expectation, then a progress line and a summary of about ten
// lines: ten showed the summary alone, not what failed.
const maxPrinted = 40

// ansiEscape matches terminal colour codes, which some assert helpers print.
var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")

// packageLoc renders the file of a test's log line (package testing prints
// its base name) like every bug location: relative to the module root, when
// the file is in the package directory dir.
func packageLoc(dir, file string) string {
	if filepath.Base(file) != file || dir == "" {
		return file
	}
	p, err := filepath.Abs(filepath.Join(dir, file))
	if err != nil {
		return file
	}
	if _, err := os.Stat(p); err != nil {
		return file
	}
	return trace.ModuleLoc(p)
}

// failedAt is the location of the printed message that begins with first
// (the first t.Error or t.Fatal message, which the test process noted), or
// else of the first message: a t.Log before the failure does not locate it.
func (f *failMsg) failedAt(first string) string {
	if want := strings.Join(strings.Fields(first), " "); want != "" {
		for i, m := range f.msgs {
			if i < len(f.locs) && strings.HasPrefix(strings.Join(strings.Fields(m), " "), want) {
				return f.locs[i]
			}
		}
	}
	return f.location
}

// enrich gives "fail" bugs the messages and location the test printed, and
// writes them into the replay files too.
func enrich(s *rt.Summary, msgs map[failKey]*failMsg) {
	for i := range s.Bugs {
		b := &s.Bugs[i]
		if b.Kind != "fail" {
			continue
		}
		f := msgs[failKey{s.Test, b.Schedule}]
		if f == nil {
			continue
		}
		b.Message = strings.Join(f.text, "\n")
		b.Location = f.failedAt(b.FailFirst)
		if b.Replay != "" {
			if tr, err := trace.ReadFile(b.Replay); err == nil {
				tr.Message, tr.Location = b.Message, b.Location
				tr.WriteFile(b.Replay)
			}
		}
	}
}

// recordCrash re-runs the schedule that killed the process with every step
// written to disk as it happens, and turns that record into a replay file.
func recordCrash(ctx context.Context, b Binary, opts Options, work, test string, schedule int, skip []int, kind, msg, loc string) string {
	cfg := opts.Config
	cfg.Package, cfg.Dir = b.Package, b.Dir
	cfg.Results = filepath.Join(work, "crash-results.jsonl")
	cfg.Run = "^" + regexp.QuoteMeta(test) + "$"
	cfg.Skip = skip
	cfg.Budget = schedule
	cfg.Continue = true
	cfg.TraceRun = schedule
	cfg.TraceFile = filepath.Join(work, "crash-steps.txt")
	var deadline time.Time
	if opts.Timeout > 0 {
		deadline = time.Now().Add(opts.Timeout)
	}
	runChild(ctx, b, cfg, deadline)
	tr := &trace.Trace{Package: b.Package, Dir: b.Dir, Test: test, Strategy: cfg.Strategy, Seed: cfg.Seed, Bound: cfg.Bound,
		Schedule: schedule, Kind: kind, Message: msg, Location: loc,
		NoRace: cfg.NoRace, Short: cfg.Short, Tags: cfg.Tags, Args: cfg.Args, Instrument: cfg.Instrument, Uninstrumented: cfg.Uninstrumented,
		Budget: opts.Config.Budget, Focus: cfg.Focus, Leaks: cfg.Leaks, IgnoreLeak: cfg.IgnoreLeak, Parallel: cfg.Parallel}
	if !cfg.AdaptiveSteps {
		tr.Steps = cfg.MaxSteps
	}
	if data, err := os.ReadFile(cfg.TraceFile); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.SplitN(line, " ", 4)
			if len(f) == 4 && f[0] == "step" {
				tr.Entries = append(tr.Entries, trace.Entry{G: f[1], Op: f[2], Site: f[3]})
			}
		}
	}
	tr.RecordSources()
	path := filepath.Join(opts.Config.OutDir, trace.FileName(test, cfg.Strategy, cfg.Seed, schedule, kind))
	if err := tr.WriteFile(path); err != nil {
		return ""
	}
	return path
}

// hangLine is what rt prints before it ends a process stuck in a hang.
var hangLine = regexp.MustCompile(`(?m)^period: hang at (\S*): (.*)$`)

// abandonedLine is what rt prints before it ends a process whose test
// goroutine waits in code Period does not control (no verdict).
var abandonedLine = regexp.MustCompile(`(?m)^period: abandoned at (\S*): (.*)$`)

var fatalLine = regexp.MustCompile(`(?m)^(fatal error: .*|runtime: .*|panic: .*)$`)

func crashReason(out []byte, err error) string {
	if m := fatalLine.Find(out); m != nil {
		return string(m)
	}
	return err.Error()
}

var goLoc = regexp.MustCompile(`(?m)^\s+(/\S+\.go):(\d+)`)

func crashLocation(out []byte) string {
	for _, m := range goLoc.FindAllSubmatch(out, -1) {
		file := string(m[1])
		if strings.Contains(file, "/src/runtime/") || strings.Contains(file, "/src/testing/") || strings.Contains(file, "/rt/") {
			continue
		}
		return trace.ModuleLoc(file + ":" + string(m[2]))
	}
	return ""
}

// ErrTestsNotRun: a test process exited with status 0 without running the
// tests (TestMain did not call m.Run); go test reports such a package ok.
var ErrTestsNotRun = errors.New("TestMain exited without running the tests")

// lastLine is ": " and the last non-empty line of a process's output, or
// "" if it printed nothing.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return ": " + l
	}
	return ""
}

// errProcessFailed: a test process ended with an error before it said
// which test it was exploring (TestMain or init exited).
var errProcessFailed = errors.New("test process failed")

// MatchTest tells whether -run's re selects test t: "Test#01", the
// external test package's Test when the package has one too
// (instrument.externalNames), is selected as go test selects it, by its
// name, "Test".
func MatchTest(re rt.RunFilter, t string) bool {
	base, _, _ := strings.Cut(t, "#")
	return re.Match(base)
}

func selectTests(all []string, run, replay string) ([]string, error) {
	if replay != "" {
		tr, err := trace.ReadFile(replay)
		if err != nil {
			return nil, err
		}
		for _, t := range all {
			if t == tr.Test {
				return []string{t}, nil
			}
		}
		return nil, fmt.Errorf("the replay file names test %s, which the package does not have", tr.Test)
	}
	re, err := rt.CompileRun(run)
	if err != nil {
		return nil, fmt.Errorf("-run: %v", err)
	}
	var out []string
	for _, t := range all {
		if MatchTest(re, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = regexp.QuoteMeta(s)
	}
	return out
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
