package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/period-dev/period/rt"
)

// The locations the runner makes (a crash's frame, a failed test's log line)
// are module-relative, like every other bug location.
func TestLocationsAreModuleRelative(t *testing.T) {
	_, file, line, _ := runtime.Caller(0)
	out := fmt.Sprintf("fatal error: concurrent map writes\n\ngoroutine 9 [running]:\nexample.com/m.F()\n\t%s:%d +0x1d\n", file, line)
	if got, want := crashLocation([]byte(out)), fmt.Sprintf("internal/runner/runner_test.go:%d", line); got != want {
		t.Errorf("crashLocation = %q, want %q", got, want)
	}
	log := "=== RUN   TestPeriodDriver/TestX/s3\n    runner_test.go:12: x = 1\n--- FAIL: TestPeriodDriver/TestX/s3 (0.00s)\n"
	msgs := parseFailures([]byte(log), filepath.Dir(file))
	f := msgs[failKey{"TestX", 3}]
	if f == nil || f.location != "internal/runner/runner_test.go:12" || f.text[0] != "runner_test.go:12: x = 1" {
		t.Errorf("parseFailures = %+v", f)
	}
	// A message's later lines (testing indents them four more spaces) belong
	// to it: testify's assertions print everything there.
	log = "=== RUN   TestPeriodDriver/TestX/s4\n    runner_test.go:12: \n        \tError:      \tNot equal:\n        \t            \texpected: 1\n    runner_test.go:13: two\n        lines\n        --- FAIL: TestPeriodDriver/TestX/s4 (0.00s)\n"
	msgs = parseFailures([]byte(log), filepath.Dir(file))
	if f := msgs[failKey{"TestX", 4}]; f == nil || len(f.text) != 2 ||
		f.text[0] != "runner_test.go:12: \n\tError:      \tNot equal:\n\t            \texpected: 1" || f.text[1] != "runner_test.go:13: two\nlines" {
		t.Errorf("multi-line messages: %+v", f)
	}
	// A subtest's lines belong to its schedule, named as go test names them.
	log = "=== RUN   TestPeriodDriver/TestX/s5\n=== RUN   TestPeriodDriver/TestX/s5/a_b\n    runner_test.go:14: deep\n=== NAME  TestPeriodDriver/TestX/s5\n    runner_test.go:15: mid\n--- FAIL: TestPeriodDriver/TestX/s5 (0.00s)\n    --- FAIL: TestPeriodDriver/TestX/s5/a_b (0.00s)\n"
	msgs = parseFailures([]byte(log), filepath.Dir(file))
	if f := msgs[failKey{"TestX", 5}]; f == nil || len(f.text) != 2 || f.location != "internal/runner/runner_test.go:14" ||
		f.text[0] != "TestX/a_b: runner_test.go:14: deep" || f.text[1] != "runner_test.go:15: mid" {
		t.Errorf("subtest messages: %+v", f)
	}
	// A failure without a t.Error line (an assert helper that prints, then
	// calls t.FailNow) is described by what the schedule printed.
	log = "=== RUN   TestPeriodDriver/TestX/s6\nnoise\n\x1b[31mq_test.go:326: too slow\x1b[39m\n\n--- FAIL: TestPeriodDriver/TestX/s6 (0.00s)\n=== RUN   TestPeriodDriver/TestX/s7\nother\n--- PASS: TestPeriodDriver/TestX/s7 (0.00s)\n"
	msgs = parseFailures([]byte(log), filepath.Dir(file))
	if f := msgs[failKey{"TestX", 6}]; f == nil || len(f.text) != 1 || f.text[0] != "the test failed after printing:\nnoise\nq_test.go:326: too slow" {
		t.Errorf("printed lines of a failing schedule: %+v", f)
	}
	if f := msgs[failKey{"TestX", 7}]; f != nil {
		t.Errorf("a passing schedule got a message: %+v", f)
	}
	if got := packageLoc(filepath.Dir(file), "nosuch_test.go"); got != "nosuch_test.go" {
		t.Errorf("a file not in the package directory: %q", got)
	}
}

// lastRun finds the schedule in flight from the results file, reading only
// whole lines past the offset it was given.
func TestLastRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	lines := `{"Action":"run","Test":"TestA","Schedule":1}
{"Action":"summary","Test":"TestA"}
{"Action":"run","Test":"TestB","Schedule":7}
{"Action":"run","Test":"TestB","Sche`
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	test, sched, end := lastRun(path, 0)
	if test != "TestB" || sched != 7 || end != int64(strings.LastIndex(lines, "\n")+1) {
		t.Fatalf("lastRun = %s %d %d", test, sched, end)
	}
	if test, _, end2 := lastRun(path, end); test != "" || end2 != end {
		t.Errorf("a line still being written was read: %q %d", test, end2)
	}
	if test, _, end := lastRun(filepath.Join(t.TempDir(), "none"), 3); test != "" || end != 3 {
		t.Errorf("missing file: %q %d", test, end)
	}
}

// readProgress also finds the running schedule's steps ("steps" lines, which
// the test process writes every second) and the subtest it is in.
func TestReadProgressSteps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	lines := `{"Action":"run","Test":"TestA","Schedule":1}
{"Action":"steps","Test":"TestA","Schedule":1,"Steps":1200}
{"Action":"steps","Test":"TestA","Schedule":1,"Steps":3200000,"Subtest":"TestA/large"}
{"Action":"steps","Test":"TestA","Schedule":1,"St`
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	p := readProgress(path, 0)
	if p.test != "TestA" || p.schedule != 1 || p.stepsTest != "TestA" || p.stepsSchedule != 1 || p.steps != 3200000 || p.subtest != "TestA/large" {
		t.Fatalf("readProgress = %+v", p)
	}
	if p2 := readProgress(path, p.end); p2.steps != -1 || p2.end != p.end {
		t.Errorf("a line still being written was read: %+v", p2)
	}
	for n, want := range map[int64]string{812: "812 steps", 45300: "45.3k steps", 3200000: "3.2M steps"} {
		if got := countSteps(n); got != want {
			t.Errorf("countSteps(%d) = %q, want %q", n, got, want)
		}
	}
}

// A test process killed by the SIGTERM or SIGINT that stopped period (sent
// to the whole process group by timeout or a CI limit) is an interruption,
// never a crash of the test; Period's own SIGKILL and exit statuses are not.
func TestInterruptedBySignal(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for script, want := range map[string]bool{
		"kill -TERM $$": true,
		"kill -INT $$":  true,
		"kill -KILL $$": false,
		"exit 2":        false,
		"true":          false,
	} {
		err := exec.Command("sh", "-c", script).Run()
		if got := interruptedBySignal(err); got != want {
			t.Errorf("%q: interruptedBySignal(%v) = %v, want %v", script, err, got, want)
		}
	}
}

// The output kept of a test process drops the lines every passing schedule
// prints and keeps the header of the output that follows, so that a
// failure's messages are still found.
func TestOutFilterKeepsFailures(t *testing.T) {
	var o outFilter
	in := "=== RUN   TestPeriodDriver\n" +
		"=== RUN   TestPeriodDriver/TestX/s1\n--- PASS: TestPeriodDriver/TestX/s1 (0.00s)\n" +
		"=== RUN   TestPeriodDriver/TestX/s2\n    x_test.go:12: boom\n        more\n    --- FAIL: TestPeriodDriver/TestX/s2 (0.00s)\n" +
		"=== RUN   TestPeriodDriver/TestX/s3\n    --- PASS: TestPeriodDriver/TestX/s3 (0.00s)\nfatal error: all goroutines are asleep"
	for i := 0; i < len(in); i += 7 { // written in pieces that cut lines
		o.Write([]byte(in[i:min(i+7, len(in))]))
	}
	b := o.done()
	want := "=== RUN   TestPeriodDriver\n" +
		"=== RUN   TestPeriodDriver/TestX/s2\n    x_test.go:12: boom\n        more\n    --- FAIL: TestPeriodDriver/TestX/s2 (0.00s)\n" +
		"=== RUN   TestPeriodDriver/TestX/s3\nfatal error: all goroutines are asleep"
	if got := b.String(); got != want {
		t.Fatalf("kept:\n%s\nwant:\n%s", got, want)
	}
	msgs := parseFailures(b.Bytes(), "")
	if m := msgs[failKey{"TestX", 2}]; m == nil || len(m.text) != 1 || m.text[0] != "x_test.go:12: boom\nmore" {
		t.Fatalf("failure messages: %+v", msgs)
	}
}

// MergeCost runs the merge of a split exploration on synthetic schedules.
func TestMergeCost(t *testing.T) {
	if m, err := MergeCost(100); err != nil || m <= 0 {
		t.Errorf("MergeCost(100) = %v, %v; want a positive cost", m, err)
	}
	if _, err := MergeCost(0); err == nil {
		t.Error("MergeCost(0): no error")
	}
}

// Before its first schedule, a test process is not silent: the tests run
// first as go test would (seconds each, hundreds in some suites) or a slow
// TestMain get progress lines saying so; once a schedule runs, the lines
// say which.
func TestProgressBeforeTheFirstSchedule(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = time.Millisecond
	results := filepath.Join(t.TempDir(), "results.jsonl")
	var mu sync.Mutex
	var lines []string
	progress := func(format string, args ...any) {
		mu.Lock()
		lines = append(lines, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	said := func(what string) bool {
		mu.Lock()
		defer mu.Unlock()
		for _, l := range lines {
			if strings.Contains(l, what) {
				return true
			}
		}
		return false
	}
	cfg := rt.Config{Prelude: []string{"TestA", "TestB"}}
	stop := watchProgress(results, 20, startingWhat("TestC", cfg, "dir", false), progress)
	for !said("TestC: running first, natively, the 2 test(s) go test runs before it") {
		time.Sleep(time.Millisecond)
	}
	if err := os.WriteFile(results, []byte(`{"Action":"run","Test":"TestC","Schedule":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for !said("TestC: schedule 1 of at most 20") {
		time.Sleep(time.Millisecond)
	}
	stop()
	starting := startingWhat("TestC", rt.Config{}, "dir", false)
	if got := starting(); got != "TestC: starting the test process (init, TestMain)" {
		t.Errorf("startingWhat without a prelude = %q", got)
	}
	unlock := lockDir("dir", true)
	if got := starting(); !strings.Contains(got, "waiting while a verdict is replayed alone") {
		t.Errorf("startingWhat while the directory is locked = %q", got)
	}
	unlock()
}

// An exploration again with one process per schedule that the deadline
// stops before it starts says so: its summary must not read "0 schedules,
// no bug" as if the budget had been explored.
func TestFreshPastDeadlineIsTimedOut(t *testing.T) {
	r, err := exploreFresh(context.Background(), Binary{Package: "p"}, Options{Progress: func(string, ...any) {}}, "TestX", time.Now().Add(-time.Second), false)
	if err != nil || !r.TimedOut || r.Schedules != 0 {
		t.Errorf("want a timed-out summary without schedules: %+v, %v", r, err)
	}
}

// A confirming replay runs while no other test process runs, of its
// package or another (osrg/gobgp's server and metrics tests share a fixed
// port): it waits for running processes, and processes that start wait for
// it; its own processes take no lock.
func TestConfirmationRunsAloneInTheRun(t *testing.T) {
	ctx := context.Background()
	acquired := func(f func()) chan struct{} {
		done := make(chan struct{})
		go func() { f(); close(done) }()
		return done
	}
	stillWaiting := func(done chan struct{}, what string) {
		t.Helper()
		select {
		case <-done:
			t.Fatalf("%s did not wait", what)
		case <-time.After(50 * time.Millisecond):
		}
	}
	other := lockProcess(ctx, "pkgB") // another package's test process
	var alone context.Context
	var unlockAlone func()
	confirmed := acquired(func() { alone, unlockAlone = holdAlone(ctx, "pkgA") })
	stillWaiting(confirmed, "a confirmation beside another package's process")
	if got := startingWhat("TestC", rt.Config{}, "pkgC", false)(); !strings.Contains(got, "waiting while a verdict is replayed alone") {
		t.Errorf("a process of a third package starting meanwhile says %q", got)
	}
	other()
	<-confirmed
	started := acquired(func() { lockProcess(ctx, "pkgC")() })
	stillWaiting(started, "a process starting during a confirmation")
	lockProcess(alone, "pkgA")() // the replay's own process
	unlockAlone()
	<-started

	// An exploration alone in its directory that confirms a verdict takes
	// the run's lock after the directory's, which it holds already.
	dirCtx, unlockDir := holdDir(ctx, "pkgD")
	done := acquired(func() {
		c, unlock := holdAlone(dirCtx, "pkgD")
		lockProcess(c, "pkgD")()
		unlock()
	})
	<-done
	unlockDir()
}
