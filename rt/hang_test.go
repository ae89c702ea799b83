//go:build go1.21

package rt

import (
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var spinSink int

func init() {
	// The test's own goroutine spins without a key point: it cannot be
	// unwound, so the run never returns.
	programs["spin-root"] = func(t *testing.T) {
		for i := 0; ; i++ {
			spinSink = i
		}
	}
}

// A process whose test goroutine is stuck ends soon after the hang is
// reported, with the line the runner reads, instead of waiting for the
// package timeout.
func TestStuckRootEndsProcess(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Strategy: "test-random", Budget: 3, OutDir: dir, Results: filepath.Join(dir, "results.jsonl"),
		MaxSteps: 1000, Watchdog: 100 * time.Millisecond, HangAfter: 300 * time.Millisecond}
	b, _ := json.Marshal(cfg)
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PERIOD_CONFIG="+string(b), "PERIOD_TEST_PROGRAM=spin-root")
	start := time.Now()
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the process did not end %v after its hang", time.Since(start))
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || !strings.Contains(string(out), "\nperiod: hang at ") {
		t.Fatalf("err %v, output:\n%s", err, out)
	}
}

func init() {
	// The test goroutine blocks in code Period does not control until its
	// child runs.
	programs["real-block"] = func(t *testing.T) {
		r, w := io.Pipe()
		Go("go", func() { w.Write([]byte("x")) })
		r.Read(make([]byte, 1)) // blocked in package io until the child runs
	}
}

// A goroutine blocked for real is detached as soon as the watchdog sees it
// blocked, not after the watchdog's full limit.
func TestRealBlockDetachedEarly(t *testing.T) {
	s := runChild(t, "real-block", Config{Budget: 10, Seed: 1})
	if len(s.Bugs) > 0 || s.Schedules != 10 {
		t.Fatalf("%d schedules, bugs %v", s.Schedules, s.Bugs)
	}
	if s.Elapsed > 1.5 { // 10 schedules x the 200ms limit without early detach
		t.Fatalf("10 schedules took %.2fs", s.Elapsed)
	}
}

func init() {
	// The test goroutine computes for about a second inside math/big, with
	// no hook: longer than the hang limit the test below sets.
	programs["stdcompute"] = func(t *testing.T) {
		m := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 2048), big.NewInt(1))
		y := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 400000), big.NewInt(1))
		new(big.Int).Exp(big.NewInt(3), y, m)
		done := make(chan struct{})
		Go("go", func() { Close("close", done) })
		Recv("recv", done)
	}
}

// A child process that runs longer than HangAfter (testify's failfast test
// runs go test -race in one) is waited for, as under go test: the schedule
// is neither abandoned nor a hang.
func TestChildProcessWaitedFor(t *testing.T) {
	s := runChild(t, "childwait", Config{Budget: 2, Seed: 1, Watchdog: 100 * time.Millisecond, HangAfter: 300 * time.Millisecond})
	if len(s.Bugs) != 0 || s.Abandoned != 0 || s.Schedules != 2 {
		t.Fatalf("a child process of 1.5 s under a 300 ms hang limit: %+v", s)
	}
}

func init() {
	programs["childwait"] = func(t *testing.T) {
		done := make(chan error, 1)
		Go("go", func() { Send("send", done, exec.Command("sleep", "1.5").Run()) })
		if err := Recv("recv", done); err != nil {
			t.Error(err)
		}
	}
}

// A long computation in the standard library (go-immutable-radix's
// TestRadix_HugeTxn sorts 800,000 strings) is not a spinning hang: it gets
// the time a busy goroutine gets, and past that the schedule is abandoned
// without a verdict.
func TestComputationInStdIsNoHang(t *testing.T) {
	s := runChild(t, "stdcompute", Config{Budget: 2, Seed: 1, Watchdog: 100 * time.Millisecond, HangAfter: 300 * time.Millisecond})
	if len(s.Bugs) != 0 {
		t.Fatalf("a computation in math/big was reported: %+v", s.Bugs)
	}
}

// sharedLater: the test goroutine writes x 20,000 times while it is alone,
// then starts a goroutine that writes x too. The first schedule learns that
// the site is shared, so every later schedule makes key points of the
// 20,000 writes its first schedule did without any (buntdb's
// TestAutoShrink: 6,305 steps, then past a million).
func sharedLater(t *testing.T) {
	x := new(int)
	for i := 0; i < 20000; i++ {
		*W("loop.write", x) = i
	}
	done := make(chan bool)
	Go("late", func() { *W("loop.write", x) = -1; Send("done", done, true) })
	Recv("done", done)
}

func init() { programs["sharedlater"] = sharedLater }

// The step limit derived from the first schedule counts its accesses that
// were not key points: a later schedule that makes key points of them is
// no hang.
func TestDerivedStepLimitCountsPlainAccesses(t *testing.T) {
	s := runChild(t, "sharedlater", Config{Strategy: "random", Budget: 3, Seed: 1, MaxSteps: 1000, AdaptiveSteps: true, NoRace: true})
	if len(s.Bugs) != 0 || s.Schedules != 3 {
		t.Fatalf("want 3 schedules without a verdict: %+v", s)
	}
}

// busyOutsideProgram tells a spin in the program's code from a goroutine
// stopped in the runtime (a stack dump stops goroutines only where they may
// be preempted, so only a runtime call shows there: a yield here, a
// collector's assist on a big heap in a real suite) and from work in the
// standard library (sorting).
func TestBusyOutsideProgram(t *testing.T) {
	sample := func(work func(stop *atomic.Bool)) map[string]int {
		var stop atomic.Bool
		ids := make(chan int64)
		done := make(chan struct{})
		go func() {
			defer close(done)
			ids <- goid()
			work(&stop)
		}()
		id := <-ids
		seen := map[string]int{}
		for i := 0; i < 200; i++ {
			time.Sleep(time.Millisecond)
			seen[busyOutsideProgram(id)]++
		}
		stop.Store(true)
		<-done
		return seen
	}
	spin := sample(func(stop *atomic.Bool) {
		for i := 1; i%(1<<20) != 0 || !stop.Load(); i++ {
			spinSink = i
		}
	})
	// (A rare sample lands elsewhere on a loaded machine, 1 in 200 seen:
	// the watchdog looks again at its next tick, so only most count.)
	if spin[""] < 150 || spin["the standard library"] > 5 {
		t.Errorf("a spin in the program's code: %v", spin)
	}
	yield := sample(func(stop *atomic.Bool) {
		for !stop.Load() {
			runtime.Gosched()
		}
	})
	if yield["the Go runtime"] == 0 {
		t.Errorf("yields: never seen in the runtime: %v", yield)
	}
	std := sample(func(stop *atomic.Bool) {
		for !stop.Load() {
			s := make([]string, 100000)
			for i := range s {
				s[i] = strconv.Itoa(len(s) - i)
			}
			sort.Strings(s)
		}
	})
	if std["the standard library"] == 0 {
		t.Errorf("sorting: never seen in the standard library: %v", std)
	}
}
