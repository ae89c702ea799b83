package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/period-dev/period/internal/report"
	"github.com/period-dev/period/strategy"
	"github.com/period-dev/period/trace"
)

// Correct spin, retry and polling loops give no verdict under any strategy
// (Go's scheduler never starves a runnable goroutine, and neither does
// Period beyond its unfairness bound), while a real livelock is still a hang.
func TestFairSchedulesOnEveryStrategy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program once per strategy")
	}
	dir, _ := filepath.Abs("testdata/fair")
	for _, name := range strategy.Names() {
		t.Run(name, func(t *testing.T) {
			code, sums, stderr := periodJSON(t, "test", "-json", "-strategy", name, "-budget", "60", "-run", "^Test[^L]", "-o", t.TempDir(), dir)
			if code != 0 {
				t.Errorf("exit %d, want 0: %s", code, stderr)
			}
			if len(sums) != 5 {
				t.Errorf("want 5 tests explored, got %d", len(sums))
			}
			for test, s := range sums {
				for _, b := range s.Bugs {
					t.Errorf("%s: false verdict %s at %s: %s", test, b.Kind, b.Location, b.Message)
				}
			}
		})
	}
	t.Run("livelock", func(t *testing.T) {
		code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "5", "-run", "^TestLivelock$", "-o", t.TempDir(), dir)
		s := sums["TestLivelock"]
		if code != 1 || len(s.Bugs) != 1 || s.Bugs[0].Kind != "hang" || !strings.Contains(s.Bugs[0].Message, "no progress under fair scheduling") {
			t.Fatalf("want a hang with no progress under fair scheduling, exit %d: %+v %s", code, s.Bugs, stderr)
		}
		checkReplay(t, s.Bugs[0].Replay, "hang")
	})
}

// A test that lists the process's goroutines at its end (goleak's
// VerifyNone) sees its own goroutines only: Period keeps none of its own
// alive between checks; one that counts them (runtime.NumGoroutine) counts
// its own.
func TestGoroutineListingSeesNoPeriodGoroutine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/introspect")
	for _, name := range []string{"period", "pct"} {
		code, sums, stderr := periodJSON(t, "test", "-json", "-strategy", name, "-budget", "20", "-o", t.TempDir(), dir)
		if code != 0 || len(sums) != 9 {
			t.Fatalf("%s: exit %d, %d summaries, want 0 and 9: %+v %s", name, code, len(sums), sums, stderr)
		}
	}
}

// A wait inside uncontrolled code is a note (Abandoned), never a verdict.
func TestWaitOutsideControlIsNoVerdict(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a child process")
	}
	dir, _ := filepath.Abs("testdata/outside")
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "3", "-o", t.TempDir(), dir)
	s := sums["TestWaitsOutside"]
	if code != 0 || len(s.Bugs) != 0 || s.Abandoned != 1 || !strings.Contains(s.AbandonedWhy, "does not control") {
		t.Fatalf("want no verdict and one abandoned schedule, exit %d: %+v %s", code, s, stderr)
	}
}

// Virtual time moves between readings as a real clock does: sleep-then-
// compare, Since >= d and pacing checks pass under every schedule.
func TestVirtualTimeIsAFaithfulClock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/clock")
	for _, name := range []string{"period", "random", "pct"} {
		code, sums, stderr := periodJSON(t, "test", "-json", "-strategy", name, "-budget", "20", "-o", t.TempDir(), dir)
		if code != 0 || len(sums) != 9 {
			t.Errorf("%s: exit %d with %d tests, want 0 and 9: %+v %s", name, code, len(sums), sums, stderr)
		}
		// A bubble whose goroutine waits on a net.Pipe moved its clock at
		// once, and synctest.Wait returned: no schedule waited for it
		// until abandoned.
		for _, test := range []string{"TestSynctestPipeServer", "TestSynctestWaitBesidePipeReader"} {
			if s := sums[test]; s.Abandoned != 0 || s.Schedules != 20 && !s.Exhausted {
				t.Errorf("%s: %s: %+v", name, test, s)
			}
		}
	}
}

// A goroutine waiting for a child process is waited for while the clock
// keeps to real time: a test's own timeout beside a child that runs 1.5 s
// does not fire, a child killed at a 200 ms timeout is killed then, and
// children started a second apart by the test's clock see that second.
func TestChildProcessesRunInRealTime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/child")
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "3", "-o", t.TempDir(), dir)
	if code != 0 || len(sums) != 5 {
		t.Fatalf("exit %d with %d tests, want 0 and 5: %+v %s", code, len(sums), sums, stderr)
	}
	for name, s := range sums {
		if len(s.Bugs) != 0 || s.Abandoned != 0 || s.Schedules == 0 {
			t.Errorf("%s: %+v", name, s)
		}
	}
}

// What follows -args reaches the test binary, as under go test, and the
// replay file carries it: the replay passes it again.
func TestArgsReachTheTestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/testargs")
	if code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "1", "-o", t.TempDir(), dir); code != 0 || len(sums["TestFlagged"].Bugs) != 0 {
		t.Fatalf("without -args: exit %d, %+v %s", code, sums, stderr)
	}
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "1", "-o", t.TempDir(), dir, "-args", "-fail", "one", "two")
	bugs := sums["TestFlagged"].Bugs
	if code != 1 || len(bugs) != 1 || !strings.Contains(bugs[0].Message, "with one,two") {
		t.Fatalf("with -args -fail one two: exit %d, %+v %s", code, sums, stderr)
	}
	code, rs, stderr := periodJSON(t, "replay", "-json", bugs[0].Replay)
	if b := rs["TestFlagged"].Bugs; code != 1 || len(b) != 1 || b[0].Message != bugs[0].Message {
		t.Errorf("replay: exit %d, %+v %s", code, rs, stderr)
	}
	if code, _, stderr := periodJSON(t, "test", "-json", dir, "-args", "-test.run=X"); code != 2 || !strings.Contains(stderr, "-test. flags") {
		t.Errorf("-args -test.run: exit %d, %s", code, stderr)
	}
}

// Stop and Reset of a timer that fired unreceived answer as the module's
// go line makes them (Go 1.23's synchronous channels, or the earlier
// buffered ones), and "if !t.Stop() { <-t.C }" never blocks: it was a
// false deadlock under both (syncthing's event logger).
func TestTimerStopAsTheModuleGoLineSays(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	for _, mod := range []string{"sync", "async"} {
		dir, _ := filepath.Abs(filepath.Join("testdata/timerstop", mod))
		code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "3", "-o", t.TempDir(), dir)
		if code != 0 || len(sums) != 2 {
			t.Errorf("%s: exit %d with %d tests, want 0 and 2: %+v %s", mod, code, len(sums), sums, stderr)
		}
	}
}

// Tests that keep package-level state (a registry, a counter) pass under
// go test -count=1 but were not written to run twice in one process: a
// verdict that a fresh process does not reproduce is not reported
// (Unconfirmed); the real bug of the package is, confirmed.
func TestVerdictsAreConfirmedInAFreshProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/rerun")
	t.Setenv("PERIOD_E2E_MARKER_DIR", t.TempDir())
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "50", "-race=false", "-o", t.TempDir(), dir)
	if code != 1 {
		t.Errorf("exit %d, want 1 (the lost update): %s", code, stderr)
	}
	for _, test := range []string{"TestRegisterOnce", "TestHandleFunc", "TestCounter"} {
		if s := sums[test]; len(s.Bugs) != 0 {
			t.Errorf("%s: false verdict %+v", test, s.Bugs)
		}
	}
	if s := sums["TestRegisterOnce"]; s.Unconfirmed == 0 {
		t.Errorf("TestRegisterOnce: the duplicate registration of a second run must be found, then not confirmed: %+v", s)
	}
	// The sync.Once of the test file is not reset between schedules, as
	// under go test -count=N: no duplicate registration to confirm.
	if s := sums["TestOnceGuardedHandler"]; s.Unconfirmed != 0 || s.Fresh || len(s.Bugs) != 0 {
		t.Errorf("TestOnceGuardedHandler: the test file's sync.Once was reset: %+v", s)
	}
	// Its second schedule fails, a fresh process's replay too, and so does
	// the test run uncontrolled: the marker it left, not the schedule.
	if s := sums["TestMarkerLeftBehind"]; len(s.Bugs) != 0 || s.Unconfirmed != 1 || s.Fresh {
		t.Errorf("TestMarkerLeftBehind: want the failure left unreported, and no fresh exploration: %+v", s)
	}
	if s := sums["TestLostUpdate"]; len(s.Bugs) != 1 || s.Bugs[0].Kind != "fail" {
		t.Errorf("TestLostUpdate: want the lost update, confirmed: %+v", s.Bugs)
	}
	// Its second run panics (duplicate registration), which a fresh process
	// does not confirm: the test is explored again in fresh processes, where
	// the real bug behind the registration is found.
	if s := sums["TestRegisterThenLostUpdate"]; !s.Fresh || s.Unconfirmed == 0 || len(s.Bugs) != 1 || s.Bugs[0].Kind != "fail" {
		t.Errorf("TestRegisterThenLostUpdate: want the lost update found in fresh processes: %+v", s)
	}
}

// -fresh explores the same schedules as one long process, for strategies
// that checkpoint their state and for those rebuilt from their journal.
func TestFreshSameSchedules(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/rerun")
	type outcome struct {
		Schedules, Steps int
		Bugs             string
	}
	summarize := func(sums map[string]report.JSONSummary) map[string]outcome {
		m := map[string]outcome{}
		for n, s := range sums {
			o := outcome{Schedules: s.Schedules, Steps: s.Steps}
			for _, b := range s.Bugs {
				o.Bugs += fmt.Sprintf("%s@%d ", b.Kind, b.Schedule)
			}
			m[n] = o
		}
		return m
	}
	for _, st := range []string{"random", "pct", "dfs", "period", "pedal", "vb"} {
		args := []string{"test", "-json", "-budget", "12", "-continue", "-strategy", st, "-run", "TestLostUpdate|TestCounter", "-o", t.TempDir()}
		_, one, _ := periodJSON(t, append(args, dir)...)
		_, fresh, stderr := periodJSON(t, append(args, "-fresh", dir)...)
		a, b := summarize(one), summarize(fresh)
		if len(a) != 2 || !reflect.DeepEqual(a, b) {
			t.Errorf("%s: one process %+v, fresh processes %+v %s", st, a, b, stderr)
		}
		if s := fresh["TestLostUpdate"]; !s.Fresh {
			t.Errorf("%s: -fresh summary does not say Fresh: %+v", st, s)
		}
	}
}

// The subprocess idiom (re-exec os.Args[0] -test.run=^t.Name()$) and
// t.Name() itself work as under go test.
func TestSubprocessIdiomAndTestNames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/subprocess")
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "3", "-o", t.TempDir(), dir)
	if code != 0 || len(sums) != 2 {
		t.Fatalf("exit %d with %d tests, want 0 and 2: %+v %s", code, len(sums), sums, stderr)
	}
}

// A test sees what it sees under go test: TestMain ran, testing.Verbose()
// is false, testing.Short() follows -short, -tags selects files, TempDir,
// Setenv and Chdir are per run, t.Parallel through an interface is the
// subtest's. A replay file keeps -short.
func TestTestIdentity(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/identity")
	out := t.TempDir()
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "10", "-o", out, dir)
	if p := sums["TestParallelThroughInterface"]; code != 1 || len(sums) != 3 || len(sums["TestIdentity"].Bugs) != 0 || len(sums["TestShort"].Bugs) != 1 || len(p.Bugs) != 0 || p.Abandoned != 0 || p.Schedules < 2 {
		t.Fatalf("without -short: exit %d, %+v, want exit 1, TestIdentity and TestParallelThroughInterface clean and TestShort failing: %s", code, sums, stderr)
	}
	code, sums, stderr = periodJSON(t, "test", "-json", "-budget", "10", "-short", "-tags", "identitytag", "-o", out, dir)
	if code != 0 || len(sums) != 4 {
		t.Fatalf("with -short -tags identitytag: exit %d, %+v, want exit 0 and 4 tests: %s", code, sums, stderr)
	}
}

// Dependencies are instrumented: the goroutines of a module required
// through a replace directive, and the closures errgroup (from the module
// cache) runs, are explored; their bugs are located in the dependency's
// source by import path and replay. -instrument=module leaves them
// uncontrolled, as before, and the summary counts their key points.
func TestDependenciesAreControlled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/deps")
	out := t.TempDir()
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "200", "-strategy", "random", "-o", out, dir)
	if code != 1 || len(sums) != 5 {
		t.Fatalf("exit %d with %d tests, want 1 and 5: %s", code, len(sums), stderr)
	}
	want := map[string]struct{ kind, loc string }{
		"TestLostUpdateInDependency": {"race", "example.com/worklib/worklib.go:17"},
		"TestDeadlockInDependency":   {"deadlock", "example.com/worklib/worklib.go:"},
		"TestErrgroupClosures":       {"race", "deps_test.go:30"},
	}
	for name, s := range sums {
		w, buggy := want[name]
		if s.Uncontrolled != 0 || len(s.Uninstrumented) != 0 {
			t.Errorf("%s: Uncontrolled %d, Uninstrumented %v: want every goroutine controlled", name, s.Uncontrolled, s.Uninstrumented)
		}
		if !buggy {
			if len(s.Bugs) != 0 {
				t.Errorf("%s: want no bug: %+v", name, s.Bugs)
			}
			continue
		}
		if len(s.Bugs) == 0 || s.Bugs[0].Kind != w.kind || !strings.HasPrefix(s.Bugs[0].Location, w.loc) {
			t.Errorf("%s: want a %s at %s: %+v", name, w.kind, w.loc, s.Bugs)
			continue
		}
		if w.kind == "deadlock" {
			checkReplay(t, s.Bugs[0].Replay, "deadlock")
		}
		// The unsynchronised increments lose an update, too (the race goes
		// on to the failure it causes).
		if w.kind == "race" && (len(s.Bugs) != 2 || s.Bugs[1].Kind != "fail") {
			t.Errorf("%s: want the race and then the lost update's failure: %+v", name, s.Bugs)
		}
	}
	code, sums, stderr = periodJSON(t, "test", "-json", "-budget", "20", "-instrument", "module", "-run", "Errgroup", "-o", out, dir)
	if s := sums["TestErrgroupClosures"]; code != 0 || s.Uncontrolled == 0 || len(s.Uninstrumented) == 0 {
		t.Errorf("-instrument=module: exit %d, %+v, want exit 0 with errgroup uncontrolled: %s", code, s, stderr)
	}
}

// A test written for go test's order (it expects the test before it to have
// run once) gets no verdict: the one-process failure is not confirmed in a
// fresh process that first runs the earlier tests, as go test does, and
// whose schedules start from the package state those tests left (a
// replaced default client). And instants read at init are never in a run's
// future. A test that is not re-runnable in one process but does not
// depend on the tests before it (TestCloseDefault) is explored again in
// processes that run it alone: the tests before it run only where a
// verdict is confirmed or in the one process that first explores it again
// as go test would run it (TestReplaceDefault runs six times whatever the
// budget: in its own exploration, in the two replays of each of
// TestCloseDefault's two confirmations, and before its one-process
// exploration; it ran in each of TestCloseDefault's fresh processes too
// before, eight times at budget 5). TestAfterSetup, explored again in one
// process after TestSetup, needs no fresh processes.
func TestGoTestOrderAndClock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/ordered")
	runs := filepath.Join(t.TempDir(), "runs")
	t.Setenv("ORDERED_RUNS", runs)
	code, sums, stderr := periodJSON(t, "test", "-json", "-p", "2", "-budget", "10", "-o", t.TempDir(), dir)
	if data, _ := os.ReadFile(runs); strings.Count(string(data), "ran") > 6 {
		t.Errorf("TestReplaceDefault ran %d times, want at most 6 (its exploration, confirmations, one re-exploration)", strings.Count(string(data), "ran"))
	}
	if code != 0 || len(sums) != 5 {
		t.Fatalf("exit %d with %d tests, want 0 and 5: %+v %s", code, len(sums), sums, stderr)
	}
	if s := sums["TestCloseDefault"]; s.Unconfirmed == 0 || !s.Fresh || len(s.Bugs) != 0 {
		t.Errorf("TestCloseDefault: want its one-process failure unconfirmed and a fresh exploration: %+v", s)
	}
	if s := sums["TestAfterSetup"]; s.Unconfirmed == 0 || s.Fresh || len(s.Bugs) != 0 {
		t.Errorf("TestAfterSetup: want its failure without TestSetup unconfirmed and no fresh exploration: %+v", s)
	}
	if s := sums["TestWindowOpenedAtInit"]; s.Schedules < 2 || s.Unconfirmed != 0 {
		t.Errorf("TestWindowOpenedAtInit: %+v", s)
	}
}

// Blocked channel operations keep Go's order: a goroutine that comes later
// does not overtake a sender or receiver Go has queued on a channel,
// buffered (the pattern of a pacer's synctest test) or not, and a select
// with a default takes the first queued one (paho's quota test), and
// neither does one that comes to a mutex others are queued on; senders and
// lockers that never waited still go in either order.
func TestQueuedChannelOperationsKeepTheirOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/fifo")
	for _, st := range []string{"period", "random", "pct", "dfs"} {
		code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "300", "-strategy", st, "-o", t.TempDir(), dir)
		if code != 1 || len(sums) != 8 {
			t.Fatalf("%s: exit %d with %d tests, want 1 and 8: %s", st, code, len(sums), stderr)
		}
		for name, s := range sums {
			buggy := strings.HasSuffix(name, "Race")
			if st == "dfs" && name == "TestLockersThatNeverWaitedRace" {
				continue // dfs needs more than 300 schedules for it, before and after lock queues
			}
			if buggy != (len(s.Bugs) > 0) {
				t.Errorf("%s: %s: bugs %+v", st, name, s.Bugs)
			}
		}
	}
}

// What a subtest does before t.Parallel happens before its parent's t.Run
// returns: copying a go 1.21 range variable there is no race (go test -race
// reports none; sourcegraph/conc's pool tests do this).
func TestParallelSubtestIsOrderedBeforeTRunReturns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/parallelsub")
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "50", "-o", t.TempDir(), dir)
	if code != 0 || len(sums) != 2 {
		t.Fatalf("exit %d, %+v, want 0 and two tests without a bug: %s", code, sums, stderr)
	}
}

// A finite test with millions of key points is not a hang (each schedule
// here runs over 2,000,000 steps, twice the default step limit), and a real
// bug beside such work is still found and confirmed.
func TestManyStepsAreNotAHang(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/bigwork")
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "4", "-strategy", "random", "-race=false", "-o", t.TempDir(), dir)
	if code != 1 {
		t.Errorf("exit %d, want 1 (the lost update): %s", code, stderr)
	}
	if s := sums["TestManyOperations"]; len(s.Bugs) != 0 || s.Cut != 0 || s.Schedules != 4 || s.Steps < 4*2000000 {
		t.Errorf("TestManyOperations: want 4 schedules of over 2,000,000 steps, no verdict, none cut: %+v", s)
	}
	if s := sums["TestManyOperationsLostUpdate"]; len(s.Bugs) != 1 || s.Bugs[0].Kind != "fail" || s.Unconfirmed != 0 {
		t.Errorf("TestManyOperationsLostUpdate: want the lost update, confirmed: %+v", s)
	}
}

// -timeout is a budget of time, not a verdict: an exploration it ends gets
// a summary of the schedules it finished, marked TimedOut, and no bug
// (the schedule in flight was a "hang" before); its steps count those of
// the schedule cut short (a summary of none before).
func TestTimeoutEndsExplorationWithoutVerdict(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/bigwork")
	for _, strat := range []string{"period", "random"} { // random splits its schedules over -p processes
		code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "1000", "-strategy", strat, "-p", "2", "-race=false", "-timeout", "3s",
			"-run", "^TestManyOperations$", "-o", t.TempDir(), dir)
		s, ok := sums["TestManyOperations"]
		if code != 0 || !ok || len(s.Bugs) != 0 || !s.TimedOut || s.Schedules >= 1000 || s.Steps <= s.Schedules*4*100000 {
			t.Errorf("%s: exit %d, %+v; want 0 and a TimedOut summary without bugs, with the steps of the schedule cut short: %s", strat, code, s, stderr)
		}
	}
}

// math/rand's top-level functions draw from a source of the schedule: two
// explorations with one seed find the same bug in the same schedule, and
// its replay reproduces it every time (before, a replay drew other numbers
// and most often passed). A test that seeds math/rand gets the numbers of
// its seed (before, a map range in between took one of them).
func TestRandomNumbersReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/randinput")
	var first []report.JSONBug
	for i := 0; i < 2; i++ {
		code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "300", "-race=false", "-minimize=false", "-o", t.TempDir(), dir)
		bugs := sums["TestCoinLostUpdate"].Bugs
		if code != 1 || len(bugs) != 1 || bugs[0].Kind != "fail" {
			t.Fatalf("exit %d, %+v: want the lost update: %s", code, bugs, stderr)
		}
		if s, ok := sums["TestSeededSequence"]; !ok || len(s.Bugs) != 0 {
			t.Fatalf("TestSeededSequence: %+v, want no bug: %s", s, stderr)
		}
		if i == 0 {
			first = bugs
			continue
		}
		if bugs[0].Schedule != first[0].Schedule {
			t.Errorf("same seed, bug in schedule %d then %d", first[0].Schedule, bugs[0].Schedule)
		}
		for j := 0; j < 3; j++ {
			code, sums, stderr := periodJSON(t, "replay", "-json", bugs[0].Replay)
			if s := sums["TestCoinLostUpdate"]; code != 1 || len(s.Bugs) != 1 || s.Diverged != "" {
				t.Errorf("replay %d: exit %d, %+v: %s", j, code, s, stderr)
			}
		}
	}
}

// A test whose key points depend on a cache the test before it fills
// (testdata/replayafter): period replay and period verify run that test
// first, as the confirmation did, and the replay reproduces. Before, the
// replay met a cache miss the exploration never saw and diverged.
func TestReplayRunsTheTestsBeforeIt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/replayafter")
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "100", "-race=false", "-o", t.TempDir(), dir)
	bugs := sums["TestLostUpdate"].Bugs
	if code != 1 || len(bugs) != 1 || bugs[0].Kind != "fail" || bugs[0].Minimized == "" {
		t.Fatalf("exit %d, %+v: want the lost update, minimised: %s", code, bugs, stderr)
	}
	for _, file := range []string{bugs[0].Replay, bugs[0].Minimized} {
		code, sums, stderr := periodJSON(t, "replay", "-json", file)
		if s := sums["TestLostUpdate"]; code != 1 || len(s.Bugs) != 1 || s.Diverged != "" {
			t.Errorf("replay %s: exit %d, %+v: %s", filepath.Base(file), code, s, stderr)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"verify", "-o", t.TempDir(), bugs[0].Replay}, &out, &errb); code != 1 || !strings.Contains(out.String(), "\nstill fails: the recorded schedule") {
		t.Errorf("verify: exit %d, want the recorded schedule to still fail:\n%s%s", code, out.String(), errb.String())
	}
}

// With -run selecting the test alone, as go test -run runs it, the
// confirmation runs none of the tests before it (before: every test of the
// package before it, natively: minutes in a suite with real sleeps); the
// replay file records the selection, and period replay runs the test
// alone too: here the bug is found in fresh processes, where the cache
// starts empty, and a replay that ran TestFill first diverged.
func TestRunSelectionRunsOnlySelectedTestsBefore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/replayafter")
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "100", "-race=false", "-run", "^TestLostUpdate$", "-o", t.TempDir(), dir)
	s := sums["TestLostUpdate"]
	if code != 1 || len(s.Bugs) != 1 || strings.Contains(stderr, "go test runs before it") {
		t.Fatalf("exit %d, %+v: want the lost update, confirmed without running TestFill first: %s", code, s, stderr)
	}
	tr, err := trace.ReadFile(s.Bugs[0].Replay)
	if err != nil || tr.Selection != "^TestLostUpdate$" {
		t.Fatalf("replay file: %v, selection %q", err, tr.Selection)
	}
	code, sums, stderr = periodJSON(t, "replay", "-json", s.Bugs[0].Replay)
	if r := sums["TestLostUpdate"]; code != 1 || len(r.Bugs) != 1 || r.Diverged != "" {
		t.Errorf("replay: exit %d, %+v: %s", code, r, stderr)
	}
}

// Ctrl-C (here: the context, canceled at the first progress line) stops
// the exploration with a summary of what was explored, marked Interrupted,
// and exit status 2.
func TestInterruptPrintsSummarySoFar(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/bigwork")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	w := &cancelAt{W: &out, match: []byte(`"Action":"progress"`), cancel: cancel}
	code := cmdTest(ctx, []string{"-json", "-budget", "1000", "-strategy", "random", "-p", "1", "-race=false",
		"-run", "^TestManyOperations$", "-o", t.TempDir(), dir}, w, &errb)
	var s report.JSONSummary
	for _, line := range bytes.Split(out.Bytes(), []byte("\n")) {
		var l report.JSONSummary
		if json.Unmarshal(line, &l) == nil && l.Action == "summary" {
			s = l
		}
	}
	if code != exitError || s.Test != "TestManyOperations" || !s.Interrupted || len(s.Bugs) != 0 || s.Schedules >= 1000 {
		t.Errorf("exit %d, %+v; want 2 and an Interrupted summary without bugs: %s", code, s, errb.String())
	}
}

// cancelAt is a writer that calls cancel once match is written through it.
type cancelAt struct {
	W      io.Writer
	match  []byte
	cancel context.CancelFunc
}

func (c *cancelAt) Write(p []byte) (int, error) {
	if bytes.Contains(p, c.match) {
		c.cancel()
	}
	return c.W.Write(p)
}

// Leak reports say where each left goroutine was created and in which
// function it waits; -leaks and -ignore-leak silence what a user accepts.
func TestLeakReportsAndFilters(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/leaks")
	kinds := func(args ...string) map[string]report.JSONSummary {
		t.Helper()
		_, sums, stderr := periodJSON(t, append(append([]string{"test", "-json", "-budget", "5", "-o", t.TempDir()}, args...), dir)...)
		if len(sums) != 3 {
			t.Fatalf("%v: %d summaries, want 3: %s", args, len(sums), stderr)
		}
		return sums
	}
	leaked := func(s report.JSONSummary) bool { return len(s.Bugs) == 1 && s.Bugs[0].Kind == "leak" }

	sums := kinds()
	j, w := sums["TestJanitorLeftRunning"], sums["TestWorkerStuck"]
	if !leaked(j) || j.Bugs[0].Created != "leaks.go:20" || j.Bugs[0].CreatedBy != "example.com/leaks.NewCache" ||
		!strings.Contains(j.Bugs[0].Message, "in example.com/leaks.(*Cache).janitor, created at leaks.go:20") {
		t.Errorf("janitor: want a leak created at leaks.go:20 by NewCache, waiting in janitor: %+v", j.Bugs)
	}
	if !leaked(w) || w.Bugs[0].Created != "leaks.go:47" || !strings.Contains(w.Bugs[0].Message, "in example.com/leaks.(*Worker).run") {
		t.Errorf("worker: want a leak created at leaks.go:47, waiting in run: %+v", w.Bugs)
	}
	if s := sums["TestClosed"]; len(s.Bugs) != 0 {
		t.Errorf("a closed cache leaks nothing: %+v", s.Bugs)
	}
	for _, c := range []struct {
		flag            string
		janitor, worker bool
	}{
		{"-leaks=blocked", false, true},
		{"-leaks=off", false, false},
		{"-ignore-leak=example.com/leaks.(*Cache).janitor", false, true},
		{"-ignore-leak=example.com/leaks.Start", true, false},
	} {
		sums := kinds(c.flag)
		if leaked(sums["TestJanitorLeftRunning"]) != c.janitor || leaked(sums["TestWorkerStuck"]) != c.worker {
			t.Errorf("%s: janitor leak %v (want %v), worker leak %v (want %v)", c.flag,
				leaked(sums["TestJanitorLeftRunning"]), c.janitor, leaked(sums["TestWorkerStuck"]), c.worker)
		}
	}
}

// Time passes while goroutines work and while they only poll: busy workers
// let a sleeper wake, spins and deadline loops end, and timeouts set
// against work do not fire early (no verdict under any of these
// strategies, nor natively); a ticker that fires while a goroutine works is
// explored, and its failure minimised in a fresh process that first runs the
// tests before it natively.
func TestTimePassesAsOnARealMachine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program once per strategy")
	}
	dir, _ := filepath.Abs("testdata/timepass")
	// native: goroutines outside control poll real timers' channels in a
	// select with default (a Go 1.23 timer channel shows no tick until a
	// receive asks for it).
	for _, name := range []string{"period", "random", "pct", "native"} {
		code, sums, stderr := periodJSON(t, "test", "-json", "-strategy", name, "-budget", "10", "-run", "^TestOK", "-o", t.TempDir(), dir)
		if len(sums) != 24 || code != 0 && name != "native" {
			t.Errorf("%s: exit %d with %d tests, want 0 and 24: %s", name, code, len(sums), stderr)
		}
		for test, s := range sums {
			for _, b := range s.Bugs {
				if name == "native" && b.Kind == "fail" {
					// Real time on a loaded machine: a ticker's goroutine
					// that gets no CPU for 50 ms ticks too few times.
					t.Logf("%s %s: %s at %s (native timing): %s", name, test, b.Kind, b.Location, b.Message)
					continue
				}
				t.Errorf("%s %s: false verdict %s at %s: %s", name, test, b.Kind, b.Location, b.Message)
			}
		}
	}
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "20", "-run", "^TestPartialProgress$", "-o", t.TempDir(), dir)
	s := sums["TestPartialProgress"]
	if code != 1 || len(s.Bugs) != 1 || s.Bugs[0].Kind != "fail" {
		t.Fatalf("want the partial progress failure, exit %d: %+v %s", code, s.Bugs, stderr)
	}
	checkReplay(t, s.Bugs[0].Replay, "fail")
}

// A failure's message keeps the lines package testing prints below its first
// one: testify's assertions print an empty first line and everything else
// there, so without them the verdict said only "x_test.go:22: ".
func TestFailureMessageKeepsItsContinuationLines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/failmsg")
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "50", "-o", t.TempDir(), dir)
	s := sums["TestLostUpdate"]
	if code != 1 || len(s.Bugs) != 1 || s.Bugs[0].Kind != "fail" {
		t.Fatalf("exit %d, want 1 and one fail: %+v %s", code, s.Bugs, stderr)
	}
	b := s.Bugs[0]
	if b.Location != "failmsg_test.go:15" || !strings.HasPrefix(b.Message, "failmsg_test.go:15: \n") ||
		!strings.Contains(b.Message, "\texpected: 2\n") || !strings.Contains(b.Message, "\tactual  : 1\n") {
		t.Errorf("location %q, message %q: want the whole message at failmsg_test.go:15", b.Location, b.Message)
	}
	checkReplay(t, b.Replay, "fail")
	// Logged, then failed: located at the failure, not at the log line.
	s = sums["TestLogThenFail"]
	if len(s.Bugs) != 1 || s.Bugs[0].Location != "failmsg_test.go:25" || !strings.Contains(s.Bugs[0].Message, "counted 1") {
		t.Errorf("TestLogThenFail: want one fail at failmsg_test.go:25 whose message has the log line too, got %+v", s.Bugs)
	} else if s.Bugs[0].Minimized == "" {
		// The shrunk schedule's replay in a fresh process must locate the
		// fail at the t.Errorf too (its report lacked the first failure's
		// line, so it was located at the t.Logf and the shrunk schedule
		// was thrown away as "not the same bug").
		t.Errorf("TestLogThenFail: the fail was not minimised: %+v", s.Bugs[0])
	}
	// The same through an assertion package's own TestingT interface.
	s = sums["TestLogThenAssert"]
	if len(s.Bugs) != 1 || s.Bugs[0].Location != "failmsg_test.go:50" || !strings.Contains(s.Bugs[0].Message, "expected: 2") {
		t.Errorf("TestLogThenAssert: want one fail at failmsg_test.go:50, got %+v", s.Bugs)
	}
}

// A leak report names as creator the function holding the go statement,
// also when the statement after it is a call the compiler inlined (the pc
// recorded at the go statement is a return address: it named rt.Recv[...]
// or the inlined method instead), and -ignore-leak matches that function.
func TestLeakCreatorIsTheGoStatementsFunction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/creator")
	_, sums, stderr := periodJSON(t, "test", "-json", "-budget", "3", "-o", t.TempDir(), dir)
	for test, want := range map[string]string{"TestRecvAfterGo": "example.com/creator.TestRecvAfterGo", "TestCreatedInAFunction": "example.com/creator.Start", "TestWaitGroupGo": "example.com/creator.TestWaitGroupGo"} {
		s := sums[test]
		if len(s.Bugs) != 1 || s.Bugs[0].Kind != "leak" || s.Bugs[0].CreatedBy != want || !strings.Contains(s.Bugs[0].Message, "by "+want+"\n") {
			t.Errorf("%s: want one leak created by %s: %+v %s", test, want, s.Bugs, stderr)
		}
	}
	_, sums, stderr = periodJSON(t, "test", "-json", "-budget", "3", "-ignore-leak", "example.com/creator.TestRecvAfterGo", "-o", t.TempDir(), dir)
	if s := sums["TestRecvAfterGo"]; len(s.Bugs) != 0 {
		t.Errorf("-ignore-leak of the creating function: %+v %s", s.Bugs, stderr)
	}
}

// Channel operations through reflect (reflect.Select, Value.Send, Recv,
// TrySend, TryRecv, Close) are key points like the statements: a correct
// merge through reflect.Select is explored without verdict instead of
// abandoned as a wait outside control (eapache/channels' Multiplex, Tee and
// SharedBuffer tests), its choice among ready cases is explored, and a
// goroutine left in one is a leak.
func TestReflectChannelOperationsAreControlled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/reflectsel")
	_, sums, stderr := periodJSON(t, "test", "-json", "-budget", "30", "-run", "^Test[MTS]", "-o", t.TempDir(), dir)
	for _, test := range []string{"TestMerge", "TestTryOps"} {
		if s := sums[test]; len(s.Bugs) != 0 || s.Abandoned != 0 || s.Uncontrolled != 0 || s.Schedules == 0 {
			t.Errorf("%s: want no verdict, all controlled: %+v %s", test, s, stderr)
		}
	}
	if s := sums["TestStuck"]; len(s.Bugs) != 1 || s.Bugs[0].Kind != "leak" || !strings.Contains(s.Bugs[0].Message, "blocked on select at reflectsel_test.go:70") {
		t.Errorf("TestStuck: want a leak blocked on select: %+v (summary %+v) %s", s.Bugs, s, stderr)
	}
	_, sums, stderr = periodJSON(t, "test", "-json", "-strategy", "random", "-budget", "30", "-run", "^TestOrderAssumed$", "-o", t.TempDir(), dir)
	if s := sums["TestOrderAssumed"]; len(s.Bugs) != 1 || s.Bugs[0].Kind != "fail" {
		t.Errorf("TestOrderAssumed: want a fail (the select may take either ready case): %+v %s", s.Bugs, stderr)
	} else {
		checkReplay(t, s.Bugs[0].Replay, "fail")
	}
}

// A timer, sleep or deadline too far away for an int64 instant (a job
// scheduler's idle timer of math.MaxInt64: reugn/go-quartz) never fires, as
// in Go. Its instant wrapped around to the past: it hid every earlier
// wake-up (a false deadlock while the test slept) or fired at once (a
// timeout of the longest duration expired). A scheduler that loses a kick
// and sleeps on that timer is still a bug.
func TestTimerOfTheLongestDurationNeverFires(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/longtimer")
	// PERIOD finds the lost kick at schedule 282 (131 before unbuffered
	// channels' queues were kept in order, which changed its enumeration).
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "500", "-o", t.TempDir(), dir)
	for _, test := range []string{"TestOKIdleTimer", "TestOKFarDeadline"} {
		if s := sums[test]; len(s.Bugs) != 0 || s.Schedules == 0 {
			t.Errorf("%s: want no verdict: %+v %s", test, s, stderr)
		}
	}
	s := sums["TestLostKick"]
	if code != 1 || len(s.Bugs) != 1 || s.Bugs[0].Kind != "fail" || !strings.Contains(s.Bugs[0].Message, "the job never ran") {
		t.Fatalf("want the lost kick's failure, exit %d: %+v %s", code, s.Bugs, stderr)
	}
	checkReplay(t, s.Bugs[0].Replay, "fail")
}

// A request canceled by its context ends within milliseconds of real time
// while the client waits in net/http (outside control): the clock waits a
// little for such a goroutine before it jumps to the next timer (a second
// away), so the request does not look a second long (failsafe-go's
// cancellation tests failed that way). And a response that takes 200 ms of
// real time wins against a ten-second timeout: the wait lasts as long as
// the jump, up to a second (yamux's "connection write timeout").
func TestClockWaitsForGoroutinesInRealIO(t *testing.T) {
	for _, st := range []string{"period", "random", "pct"} {
		t.Run(st, func(t *testing.T) {
			checkLangProgram(t, "testdata/netcancel", 2, nil, "-budget", "20", "-strategy", st)
		})
	}
}

// A line server in miniredis' shape: t.Cleanup registered through the
// package's own Tester interface runs at the end of the run (it ran after
// it, so the run waited a minute for the goroutines it stops), and a reader
// goroutine that hands a line over and goes back to its socket is waited
// for milliseconds, not the watchdog's second: every schedule finishes, none
// abandoned (miniredis' tests were abandoned, a minute each).
func TestServerClosedByCleanupThroughAnInterface(t *testing.T) {
	for _, st := range []string{"period", "random"} {
		t.Run(st, func(t *testing.T) {
			checkLangProgram(t, "testdata/tcpserver", 1, nil, "-budget", "5", "-strategy", st)
		})
	}
}

// A panic value whose Error or Format method is instrumented code is
// formatted before the engine's lock is taken: the report names it, where
// the test process used to wait for itself for ever (watermill's
// Router.Close panicked with a github.com/pkg/errors error: eight silent
// minutes, then a timeout). os.Exit called through a value is reported as
// a direct call is.
func TestPanicValueFormattedByInstrumentedCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/panicvalue")
	_, sums, stderr := periodJSON(t, "test", "-json", "-budget", "3", "-timeout", "2m", "-o", t.TempDir(), dir)
	for test, want := range map[string]string{"TestDeferredPanicWithError": "close failed with code 7", "TestGoroutinePanicWithError": "flush failed with code 9",
		"TestExitThroughAValue": "os.Exit(3) called by goroutine"} {
		s := sums[test]
		if len(s.Bugs) != 1 || s.Bugs[0].Kind != "panic" || !strings.Contains(s.Bugs[0].Message, want) {
			t.Errorf("%s: want a panic naming %q: %+v %s", test, want, s, stderr)
		}
	}
}

// Time spent waiting for real (an HTTP request, a child process) passes on
// the test's clock, as on a machine: a 100 ms request takes 100 ms, not 0,
// and a ticker beside it ticks through it; a timer between hedged requests
// handed to pool workers outside control (left by init, as by an earlier
// test in a confirming process) does not outrun their responses, and the
// 30-day timer of the last wait never fires first (cristalhq/hedgedhttp's
// false fails and deadlocks); a deadline set on a pipe after the clock
// jumped is a real instant as far away as the program meant.
func TestRealWaitsTakeRealTime(t *testing.T) {
	for _, st := range []string{"period", "random", "pct"} {
		t.Run(st, func(t *testing.T) {
			checkLangProgram(t, "testdata/realwait", 18, nil, "-budget", "10", "-strategy", st)
		})
	}
}

// A struct embedding *time.Timer (clockwork's realTimer), used through an
// interface, reaches the virtual clock through methods the rewriter gives
// it: Stop stops, Reset moves, nothing panics ("Stop called on
// uninitialized Timer": every gocron test failed that way).
func TestEmbeddedTimersAreControlled(t *testing.T) {
	for _, st := range []string{"period", "random"} {
		t.Run(st, func(t *testing.T) {
			checkLangProgram(t, "testdata/embeddedtimer", 2, nil, "-budget", "10", "-strategy", st)
		})
	}
}

// A signal the test sends its own process is handled before a short sleep
// ends, as on a real machine: for a second after such a signal the clock
// waits in real time before it jumps, and looks for the receiver the
// delivery made ready (hashicorp/go-metrics' TestInmemSignal failed).
func TestSelfSignalHandledBeforeTimeMovesOn(t *testing.T) {
	for _, st := range []string{"period", "random"} {
		t.Run(st, func(t *testing.T) {
			checkLangProgram(t, "testdata/selfsignal", 1, nil, "-budget", "10", "-strategy", st)
		})
	}
}

// Two tests that use one file name in the package directory, explored in
// processes that run at once (-p 2): no verdict, since a replay confirming
// one runs alone there (tidwall/buntdb's tests share "data.db").
func TestTestsSharingAFileAreConfirmedAlone(t *testing.T) {
	checkLangProgram(t, "testdata/sharedfile", 2, nil, "-p", "2", "-budget", "20", "-strategy", "random")
}

// A goroutine left waiting for real when the test returns (a server's
// Accept on a listener nobody closes) is a leak reported at once, with
// where it waits and where it was created, not a schedule abandoned after
// seconds (tidwall/redcon's TestServerUnix); the same server closed by the
// test leaves nothing.
func TestLeftInRealWaitIsALeak(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/realleak")
	_, sums, stderr := periodJSON(t, "test", "-json", "-budget", "5", "-o", t.TempDir(), dir)
	s := sums["TestServerNeverClosed"]
	if len(s.Bugs) != 1 || s.Bugs[0].Kind != "leak" || s.Abandoned != 0 || s.Bugs[0].Created != "realleak_test.go:28" ||
		!strings.Contains(s.Bugs[0].Message, "blocked for real (IO wait) at realleak.go:10, inside code Period does not control") {
		t.Errorf("TestServerNeverClosed: want one leak in Accept, created at realleak_test.go:28: %+v %s", s, stderr)
	}
	if s := sums["TestServerClosed"]; len(s.Bugs) != 0 || s.Abandoned != 0 {
		t.Errorf("TestServerClosed: %+v", s)
	}
	// The panic of pion/transport's TestBatchIO (a timer stopped through an
	// interface), with the test goroutine in a UDP read no one answers:
	// reported, confirmed, not abandoned, not waited for for ever.
	if s := sums["TestPanicWhileReading"]; len(s.Bugs) != 1 || s.Bugs[0].Kind != "panic" || s.Abandoned != 0 || s.Unconfirmed != 0 {
		t.Errorf("TestPanicWhileReading: want one confirmed panic: %+v %s", s, stderr)
	}
}

// A finalizer, a weak pointer and a cleanup of an object whose mutex and
// fields goroutines used do their work after a collection, as under go
// test: the models and race detection's records must not keep the object
// alive (with race detection and without).
func TestCollectedObjectsAreNotKeptAlive(t *testing.T) {
	for _, race := range []string{"true", "false"} {
		t.Run("race="+race, func(t *testing.T) {
			checkLangProgram(t, "testdata/collect", 5, nil, "-budget", "10", "-race="+race)
		})
	}
}

// A package that reads the runtime's clocks through //go:linkname
// (time.now, runtime.nanotime: sethvargo/go-limiter's fasttime) reads
// Period's clock: a virtual sleep refills its bucket, and its instants
// agree with time.Now. A variable linknamed to the runtime's read-only
// data is not reset between schedules (the process died of a fault
// writing it: gofiber/fiber).
func TestLinknamedClocksAreVirtual(t *testing.T) {
	checkLangProgram(t, "testdata/linkclock", 2, nil, "-budget", "10")
}

// A t.Run right after a channel hand-off that blocked the test goroutine
// for real starts its subtest (thejerf/suture's TestDoNotPropagate: the
// subtest never started and the run was reported as a 5 s hang).
func TestSubtestAfterHandoff(t *testing.T) {
	for _, st := range []string{"period", "random"} {
		t.Run(st, func(t *testing.T) {
			checkLangProgram(t, "testdata/subhandoff", 1, nil, "-budget", "20", "-strategy", st)
		})
	}
}

// A connection's deadline is a timer of the virtual clock: a reader's
// 100 ms deadline is not reached while the writer takes 600,000 key points
// (far more than 100 ms of real time under Period, about 60 ms of the
// program's), a deadline nobody beats still expires, and a cleared one does
// not (hashicorp/serf's joins failed with EOF when memberlist's 100 ms
// deadline expired in real time).
func TestConnectionDeadlinesAreVirtual(t *testing.T) {
	for _, st := range []string{"period", "random"} {
		t.Run(st, func(t *testing.T) {
			checkLangProgram(t, "testdata/conndeadline", 5, nil, "-budget", "3", "-strategy", st)
		})
	}
}

// A select that waits is completed by the first of its channels to become
// ready, as Go's runtime completes it: a close right after a send cannot
// take the send's place, and the first receiver in line gets the value
// (lestrrat-go/backoff's TestConstant failed: its Continue took the
// cancelled context after the last retry's value), and a cancelled
// context's Done comes before its children's (riverqueue's notifier
// pinged a mock without a ping). Each test fails on the code before.
func TestBlockedSelectTakesTheFirstReadyCase(t *testing.T) {
	for _, st := range []string{"period", "random", "pct"} {
		t.Run(st, func(t *testing.T) {
			checkLangProgram(t, "testdata/selectcommit", 4, nil, "-budget", "50", "-strategy", st)
		})
	}
}

// Every ready case of a select is taken within a few passes of a loop, as
// Go's random choice takes it, under the strategies whose choices are
// systematic (the first case, until a later schedule tries another): one
// ready case was never taken in 200 passes (a false fail), and a server
// loop fed work at every pass never saw its quit case (cut after ten
// million steps). Both fail on the code before.
func TestSelectTakesEveryReadyCase(t *testing.T) {
	for _, st := range []string{"dfs", "ipb", "pedal"} {
		t.Run(st, func(t *testing.T) {
			if testing.Short() {
				t.Skip("builds and explores a program")
			}
			dir, _ := filepath.Abs("testdata/selectfair")
			code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "5", "-strategy", st, "-o", t.TempDir(), dir)
			if code != 0 || len(sums) != 2 {
				t.Fatalf("exit %d with %d tests, want 0 and 2: %s", code, len(sums), stderr)
			}
			for name, s := range sums {
				if len(s.Bugs) != 0 || s.Cut != 0 {
					t.Errorf("%s: %d bugs, %d schedules cut, want none: %+v", name, len(s.Bugs), s.Cut, s.Bugs)
				}
			}
		})
	}
}

// A timer's channel reports len and cap 0, as Go 1.23's synchronous timer
// channels do, though a virtual timer feeds a one-slot buffer (cap 1 and
// len 1 after expiry on the code before).
func TestTimerChannelsLookSynchronous(t *testing.T) {
	checkLangProgram(t, "testdata/timerchan", 2, nil, "-budget", "3")
}

// The standard library's concurrency primitives used as suites use them
// (pipelines, worker pools, Cond, Once, Pool, contexts, tickers, timers,
// Goexit, nil channels, the subtests of a parallel group...): 48 tests that
// pass under go test -race get no verdict under any strategy. Written
// against Go's documented guarantees, not against Period; the first run
// found the select that always took its first case (dfs, ipb, idb, pedal;
// now in testdata/selectfair) and timer channels with a buffer.
func TestStandardIdiomsGetNoVerdict(t *testing.T) {
	for _, st := range []string{"period", "random", "pct", "ppct", "dfs", "ipb", "idb", "pedal", "vb", "pctvb"} {
		t.Run(st, func(t *testing.T) {
			checkLangProgram(t, "testdata/idioms", 49, nil, "-budget", "5", "-strategy", st)
		})
	}
}

// A second batch, with the network (httptest, TCP, net.Pipe, io.Pipe),
// subprocesses, signals, copy-on-write publication, a Treiber stack, a
// debouncer and self-rearming timers: 48 more tests passing go test -race
// -count=10 and -cpu 1,2,4. Its first run found the iterative searches'
// work items copying their whole prefix (ipb, idb and pedal timed out on
// TestAtomicVsMutexCounter, pedal at 12 GB).
func TestMoreIdiomsGetNoVerdict(t *testing.T) {
	for _, st := range []string{"period", "random", "pct", "ppct", "dfs", "ipb", "idb", "pedal", "vb", "pctvb"} {
		t.Run(st, func(t *testing.T) {
			checkLangProgram(t, "testdata/idioms2", 48, nil, "-budget", "5", "-strategy", st)
		})
	}
}

// A third batch (cmd/period/testdata/idioms3, 68 tests): iter.Pull and
// range-over-func with goroutines, finalizers and AddCleanup after
// runtime.GC, weak pointers and unique.Make, t.Context and t.Output,
// goroutines started by init, a var initialiser and TestMain, generic
// containers, LockOSThread, Goexit, os.Pipe deadlines. None gets a verdict
// under any strategy.
func TestThirdIdiomsGetNoVerdict(t *testing.T) {
	for _, st := range []string{"period", "random", "pct", "ppct", "dfs", "ipb", "idb", "pedal", "vb", "pctvb"} {
		t.Run(st, func(t *testing.T) {
			checkLangProgram(t, "testdata/idioms3", 68, nil, "-budget", "5", "-strategy", st)
		})
	}
}

// Goroutines that TestMain, init and package variables' initialisers
// started work on real 20 ms tickers, sleeps and self-rearming AfterFuncs
// while the tests poll for their effect with virtual sleeps: the clock
// jumped three seconds before any of them ran, in the first schedule and
// in its fresh-process replay (four false fails, confirmed). No schedule
// fails now, so nothing is left to confirm either.
func TestBackgroundTickersKeepUpWithTheClock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/bgticker")
	for _, st := range []string{"period", "random", "pct"} {
		code, sums, stderr := periodJSON(t, "test", "-json", "-strategy", st, "-budget", "30", "-o", t.TempDir(), dir)
		if code != 0 || len(sums) != 4 {
			t.Errorf("%s: exit %d with %d tests, want 0 and 4: %+v %s", st, code, len(sums), sums, stderr)
		}
		for name, s := range sums {
			if len(s.Bugs) != 0 || s.Unconfirmed != 0 || s.Fresh || s.Schedules == 0 {
				t.Errorf("%s: %s: %+v", st, name, s)
			}
		}
	}
}

// A test that returns while a proxy's goroutines still wait for real, and
// some of them end after it, gets its leak reported within seconds, not an
// abandoned schedule after a minute (go-socks5's TestSOCKS5_Connect).
func TestLeakAfterLateHooksIsReported(t *testing.T) {
	checkLangProgram(t, "testdata/proxyleak", 1, map[string]string{"TestProxy": "leak"}, "-budget", "1")
}

// Goroutines may go on after the test returned for as many steps as the
// test took (a cache's expiration pass over 110,000 items) without being a
// leak; one that spins on a flag nobody sets is still one. A timer due long
// after the test, with no goroutine left, does not fire; one due at once
// does, and the goroutine it leaves blocked is a leak.
func TestWorkAfterTheTestIsNoLeak(t *testing.T) {
	checkLangProgram(t, "testdata/cleanuppass", 5, map[string]string{"TestSpinAfterReturn": "leak", "TestTimerStartsLeakSoonAfterReturn": "leak"}, "-budget", "2")
}

// testing.AllocsPerRun counts the program's allocations, not the engine's
// (pion/interceptor's "at most 4 allocations" tests failed with 23), and
// variables whose addresses only the hooks take, and the cases of a
// select, stay on the stack.
func TestAllocsPerRunCountsTheProgramsOwn(t *testing.T) {
	checkLangProgram(t, "testdata/allocsperrun", 5, nil, "-budget", "5")
}

// A handler (a goroutine of net/http, outside control) that sends or
// receives with a select's default, while a controlled goroutine is blocked
// at the other end, completes the case as Go would, and only one handler
// takes a blocked receiver's value (benthos's input tests timed out).
func TestOutsidePollMeetsBlockedPartner(t *testing.T) {
	checkLangProgram(t, "testdata/outsidepoll", 4, nil, "-budget", "2")
}

// A process the test leaves running with the test's standard output (air's
// runner tests) does not keep period waiting once the test process has
// exited: before, period read that pipe until the process ended, through
// SIGTERM too.
func TestOrphanHoldingOutputDoesNotHang(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	pidfile := filepath.Join(t.TempDir(), "pids")
	t.Setenv("ORPHAN_PIDFILE", pidfile)
	killOrphans := func() {
		data, _ := os.ReadFile(pidfile)
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	defer killOrphans()
	// A hang guard, not a speed check (the child sleeps an hour): ending
	// the child lets a period that waits for it return, and fail.
	var hung atomic.Bool
	guard := time.AfterFunc(5*time.Minute, func() { hung.Store(true); killOrphans() })
	checkLangProgram(t, "testdata/orphanout", 1, nil, "-budget", "1")
	guard.Stop()
	if hung.Load() {
		t.Fatal("period waited for the test process's output until its child was killed")
	}
}

// The clock does not jump past a goroutine outside control that sleeps for
// real (an HTTP handler): the client's longer deadline is not reached.
func TestClockWaitsForASleepingHandler(t *testing.T) {
	checkLangProgram(t, "testdata/slowhandler", 1, nil, "-budget", "2")
}

// A failure that depends on randomness seeded with time.Now().UnixNano()
// is confirmed in a fresh process and replays every time: a replay starts
// its virtual clock where the recorded run's started (before, the fresh
// process drew other numbers, and lestrrat-go/backoff's flaky jitter test
// was never reported).
func TestClockSeededFailureReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/timeseed")
	// random: its schedules never run out (PERIOD exhausts this test's two
	// in two schedules), so 100 draws miss the one in eight with
	// probability (7/8)^100.
	code, sums, stderr := periodJSON(t, "test", "-json", "-strategy", "random", "-budget", "100", "-minimize=false", "-o", t.TempDir(), dir)
	// The check that the passing schedule 1 still passes in a fresh
	// process (failsWherePassed) reads the clock from where schedule 1 did:
	// from the real present, it drew a failing number one time in eight
	// and the draw went unreported (2 to 6 explorations in 25 before).
	if u := sums["TestJitterWithinBounds"].Unconfirmed; u != 0 {
		t.Errorf("the draw was found %d time(s) and not confirmed: %s", u, stderr)
	}
	for _, test := range []string{"TestJitterWithinBounds"} {
		bugs := sums[test].Bugs
		if code != 1 || len(bugs) != 1 || bugs[0].Kind != "fail" {
			t.Fatalf("%s: exit %d, %+v: want the out-of-bounds draw: %s", test, code, bugs, stderr)
		}
		// The run read the clock: its file keeps the clock's start even when
		// a replay from another instant draws a failing number by chance (one
		// time in eight: such a file then failed to replay, the suite's flake).
		if data, err := os.ReadFile(bugs[0].Replay); err != nil || !strings.Contains(string(data), "\nclock-base ") {
			t.Errorf("%s: replay file without its clock base (%v):\n%s", test, err, data)
		}
		for j := 0; j < 3; j++ {
			code, sums, stderr := periodJSON(t, "replay", "-json", bugs[0].Replay)
			if s := sums[test]; code != 1 || len(s.Bugs) != 1 || s.Diverged != "" {
				t.Errorf("%s: replay %d: exit %d, %+v: %s", test, j, code, s, stderr)
			}
		}
	}
}

// A goroutine left waiting on a channel that a package-level variable
// still reaches (a worker kept in a registry map, a sync.Map, behind an
// atomic.Pointer, or a reply channel queued in a test file's channel) is
// not a leak, as Go's goroutine leak profile defines it; one dropped from
// the registry, or never kept, is. Neither is a daemon a package-level
// sync.Once or sync.OnceFunc started (one per process), where one started
// by an object's Once is. -leaks=any reports them all.
func TestLeaksReachedFromPackageVariables(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/registry")
	leaked := map[string]bool{"TestForgottenWorker": true, "TestLocalWorker": true, "TestObjectDaemon": true}
	for _, leaks := range []string{"all", "any"} {
		code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "5", "-leaks", leaks, "-o", t.TempDir(), dir)
		if code != 1 || len(sums) != 7 {
			t.Fatalf("-leaks=%s: exit %d with %d tests, want 1 and 7: %s", leaks, code, len(sums), stderr)
		}
		for name, s := range sums {
			want := leaked[name] || leaks == "any"
			if got := len(s.Bugs) == 1 && s.Bugs[0].Kind == "leak"; got != want {
				t.Errorf("-leaks=%s: %s: leak reported %v, want %v: %+v", leaks, name, got, want, s.Bugs)
			}
		}
	}
}

// A Go file that a //go:embed directive also embeds (a code generator's
// golden file, compiled as a package of its own) is left as it is: the
// overlay that instruments it replaced the embedded bytes too, and the
// test comparing them with the file on disk failed (connectrpc's
// protoc-gen-connect-go). The tests such a file declares are not explored,
// with a note: uninstrumented, their t.Name() was the driver's, and
// wazero's TestFileSync, which names a file after its test, failed.
func TestEmbeddedSourcesStayOriginal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/embedgo")
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "3", "-o", t.TempDir(), dir)
	if s, ok := sums["TestGoldenIsTheFile"]; code != 0 || !ok || len(s.Bugs) != 0 {
		t.Errorf("exit %d, %+v, want 0 and no bug: %s", code, s, stderr)
	}
	if s, ok := sums["TestNamesAFileAfterItself"]; ok {
		t.Errorf("a test of an embedded (so uninstrumented) file was explored: %+v", s)
	}
}

// Code of the program that a goroutine of the standard library runs (an
// http.Server's RegisterOnShutdown hook) gets a moment to start before the
// clock jumps to the test's 5-second timeout: no machine fires the timeout
// first (connectrpc's memhttp).
func TestStdGoroutinesStartBeforeTheClockJumps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/stdgoroutine")
	for _, st := range []string{"period", "random", "pct"} {
		code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "20", "-strategy", st, "-o", t.TempDir(), dir)
		if s := sums["TestOnShutdownHookRuns"]; code != 0 || len(s.Bugs) != 0 {
			t.Errorf("%s: exit %d, %+v, want 0 and no bug: %s", st, code, s, stderr)
		}
	}
}

// Tests that collide on a fixed port beside each other under -p: the
// verdict of the one that loses is not reported, and the test is explored
// again in one process, alone in the directory, not with one process per
// schedule.
func TestFirstScheduleCollisionIsExploredAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("holds a port for seconds")
	}
	dir, _ := filepath.Abs("testdata/fixedport")
	code, sums, stderr := periodJSON(t, "test", "-json", "-p", "2", "-budget", "10", "-strategy", "random", "-o", t.TempDir(), dir)
	if code != 0 || len(sums) != 2 {
		t.Fatalf("exit %d, %d summaries, want 0 and 2: %+v\n%s", code, len(sums), sums, stderr)
	}
	collided := 0
	for test, s := range sums {
		if len(s.Bugs) != 0 || s.Schedules != 10 {
			t.Errorf("%s: want 10 schedules and no bug: %+v", test, s)
		}
		if s.Unconfirmed > 0 {
			collided++
			if s.Fresh {
				t.Errorf("%s: explored again with one process per schedule after a collision: %+v", test, s)
			}
		}
	}
	if collided == 0 {
		t.Errorf("neither test lost the port to the other: the processes did not run at once\n%s", stderr)
	}
}

// A TestMain that holds a fixed port for the package's tests and exits
// when it cannot (grpc-gateway's integration tests) fails in every process
// of the package but one under -p: those tests are explored again alone in
// the package directory, as go test runs the package, instead of the
// package failing.
func TestFixedPortTestMainExploredAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("holds a port for seconds")
	}
	dir, _ := filepath.Abs("testdata/fixedportmain")
	code, sums, stderr := periodJSON(t, "test", "-json", "-p", "2", "-budget", "10", "-strategy", "random", "-o", t.TempDir(), dir)
	if code != 0 || len(sums) != 3 {
		t.Fatalf("exit %d, %d summaries, want 0 and 3: %+v\n%s", code, len(sums), sums, stderr)
	}
	for test, s := range sums {
		if len(s.Bugs) != 0 || s.Schedules != 10 {
			t.Errorf("%s: want 10 schedules and no bug: %+v", test, s)
		}
	}
}

// A sync.Pool starts empty in every run, as in a fresh process, and a Get
// returns the last value put back whichever processor the goroutines ran
// on: the real Pool's per-processor caches made a value from an earlier
// run come back (an unconfirmed fail and a second exploration in fresh
// processes, here) and made the same schedule take different steps
// (centrifugal/protocol, docs/qa.md).
func TestPoolStartsEmptyEachRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/poolrun")
	code, sums, stderr := periodJSON(t, "test", "-json", "-strategy", "random", "-budget", "30", "-o", t.TempDir(), dir)
	if code != 0 || len(sums) != 2 {
		t.Fatalf("exit %d with %d tests, want 0 and 2: %s", code, len(sums), stderr)
	}
	for name, s := range sums {
		if len(s.Bugs) != 0 || s.Unconfirmed != 0 || s.Fresh {
			t.Errorf("%s: %+v, want no bug, none unconfirmed, not explored again in fresh processes", name, s)
		}
	}
}

// Identifiers drawn from crypto/rand (Reader, Read, Int, Text) come from
// the run's source inside a controlled run: two explorations and a replay
// draw the same ones, and so range over a map keyed by them in the same
// order. A Reader the test replaced is read as it is.
func TestCryptoRandDrawsFromTheRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/cryptorand")
	var msgs []string
	var replay string
	for range 2 {
		code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "1", "-minimize=false", "-o", t.TempDir(), dir)
		b := sums["TestDrawnIdentifiers"].Bugs
		if code != 1 || len(b) != 1 || len(sums["TestReplacedReader"].Bugs) != 0 {
			t.Fatalf("exit %d, %+v: want one fail of TestDrawnIdentifiers only: %s", code, sums, stderr)
		}
		msgs, replay = append(msgs, b[0].Message), b[0].Replay
	}
	_, sums, stderr := periodJSON(t, "replay", "-json", replay)
	if b := sums["TestDrawnIdentifiers"].Bugs; len(b) != 1 {
		t.Fatalf("replay: %+v: %s", sums, stderr)
	} else {
		msgs = append(msgs, b[0].Message)
	}
	if msgs[0] != msgs[1] || msgs[0] != msgs[2] {
		t.Errorf("draws differ between explorations and the replay:\n%s", strings.Join(msgs, "\n"))
	}
}

// Each test's runs draw their own random numbers: tests that name the
// files they leave behind with rand.Uint32() (badger's tables) drew the
// same name in every test's first schedule, and every test after the first
// failed with "file exists", confirmed, where go test draws new numbers in
// every process (docs/qa.md, thirty-eighth corpus).
func TestTestsDrawTheirOwnRandomNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	t.Setenv("TMPDIR", t.TempDir()) // where the tests leave their files
	dir, _ := filepath.Abs("testdata/randnames")
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "3", "-o", t.TempDir(), dir)
	if code != 0 || len(sums) != 3 {
		t.Fatalf("exit %d with %d tests, want 0 and 3: %s", code, len(sums), stderr)
	}
	for name, s := range sums {
		if len(s.Bugs) != 0 {
			t.Errorf("%s: %+v, want no bug", name, s.Bugs)
		}
	}
}

// TestSlowRealCleanupIsNoHang: package testing removes a subtest's
// TempDir after the subtest's function returns, while the parent waits in
// t.Run; a removal of milliseconds made the watchdog detach the parent,
// which was then never resumed (a false hang on the code before).
func TestSlowRealCleanupIsNoHang(t *testing.T) {
	checkLangProgram(t, "testdata/slowcleanup", 1, nil, "-budget", "2")
}

// TestDetachedWorkMovesTheClock: a goroutine computing for seconds of
// real time (detached) while the test waits on a deadline moves the clock
// by its work, not by a jump to the deadline (a false fail before).
func TestDetachedWorkMovesTheClock(t *testing.T) {
	checkLangProgram(t, "testdata/detachedwork", 1, nil, "-budget", "1")
}

// Subtests that t.Run runs one at a time are one thread of control with
// their parent: a sequential test with subtests has a single schedule and
// keeps no race state (a regexp parser's table test had 20 schedules of 1.4
// million steps, 28 s each), while a subtest's goroutine or parallel
// subtests still race. Parallel subtests run -test.parallel at a time (at
// least two), as under go test: all twelve ran at once before, a confirmed
// false fail of TestParallelSlots. A sequential subtest of a parallel test
// gives its slot up while its own parallel subtests run (cast's false
// deadlocks, TestNestedParallelSlots).
func TestSubtestModel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/subtestmodel")
	for _, st := range []string{"period", "random", "pct", "dfs"} {
		t.Run(st, func(t *testing.T) {
			_, sums, stderr := periodJSON(t, "test", "-json", "-budget", "30", "-strategy", st, "-o", t.TempDir(), dir)
			if len(sums) != 6 {
				t.Fatalf("%d summaries, want 6: %s", len(sums), stderr)
			}
			for _, test := range []string{"TestSequentialSubtests", "TestSubtestGoroutineOrdered"} {
				if s := sums[test]; len(s.Bugs) != 0 || !s.Exhausted || s.Schedules != 1 || s.Steps > 10 {
					t.Errorf("%s: want one schedule of a few steps, no bug: %+v", test, s)
				}
			}
			for _, test := range []string{"TestSubtestGoroutineRace", "TestParallelSubtestsRace"} {
				if s := sums[test]; len(s.Bugs) != 1 || s.Bugs[0].Kind != "race" || !strings.Contains(s.Bugs[0].Message, "stack of the earlier") {
					t.Errorf("%s: want the race, with the earlier access's stack: %+v", test, s)
				}
			}
			for _, test := range []string{"TestParallelSlots", "TestNestedParallelSlots"} {
				if s := sums[test]; len(s.Bugs) != 0 || s.Unconfirmed != 0 {
					t.Errorf("%s: want no verdict: %+v", test, s)
				}
			}
		})
	}
}
