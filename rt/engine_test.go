//go:build go1.21

package rt

import (
	"context"
	"encoding/json"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/period-dev/period/strategy"
	"github.com/period-dev/period/trace"
)

// testRandom is a minimal seeded random strategy, so that the engine's tests
// do not depend on package strategy's implementations.
type testRandom struct {
	r    *rand.Rand
	runs int
	max  int
}

func (s *testRandom) Name() string                        { return "test-random" }
func (s *testRandom) Begin() bool                         { s.runs++; return s.runs <= s.max }
func (s *testRandom) Next(en []strategy.Event) int        { return s.r.Intn(len(en)) }
func (s *testRandom) Choose(at strategy.Event, n int) int { return s.r.Intn(n) }
func (s *testRandom) End(r *strategy.Run)                 {}

// programs are the hand-instrumented test bodies the engine tests explore.
// Each runs in a child process (this test binary re-executed), exactly as
// the period command runs instrumented tests: failing schedules must not fail
// the tests of this package, and a run may end the process.
var programs = map[string]func(*testing.T){}

func init() {
	strategy.Register("test-random", func(o strategy.Options) strategy.Strategy {
		return &testRandom{r: rand.New(rand.NewSource(o.Seed)), max: o.Budget}
	})
}

// TestChild is the child-process entry point.
func TestChild(t *testing.T) {
	name := os.Getenv("PERIOD_TEST_PROGRAM")
	if name == "" {
		t.Skip("child process entry point")
	}
	Explore(t, []Test{{Name: name, F: programs[name]}})
}

// runChild explores program name in a child process and returns its summary.
func runChild(t *testing.T, name string, cfg Config) Summary {
	t.Helper()
	dir := t.TempDir()
	if cfg.Strategy == "" {
		cfg.Strategy = "test-random"
	}
	cfg.OutDir = dir
	cfg.Results = filepath.Join(dir, "results.jsonl")
	if cfg.MaxSteps == 0 {
		cfg.MaxSteps = 10000
	}
	if cfg.Watchdog == 0 {
		cfg.Watchdog = 200 * time.Millisecond
		cfg.HangAfter = time.Second
	}
	b, _ := json.Marshal(cfg)
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PERIOD_CONFIG="+string(b), "PERIOD_TEST_PROGRAM="+name)
	out, _ := cmd.CombinedOutput()
	data, err := os.ReadFile(cfg.Results)
	if err != nil {
		t.Fatalf("child wrote no results: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var s Summary
		if json.Unmarshal([]byte(line), &s) == nil && s.Action == "summary" {
			return s
		}
	}
	t.Fatalf("child wrote no summary:\n%s\n%s", data, out)
	return Summary{}
}

func kinds(s Summary) string {
	var k []string
	for _, b := range s.Bugs {
		k = append(k, b.Kind)
	}
	return strings.Join(k, ",")
}

// Hand-instrumented programs: written the way the instrumenter rewrites
// source, every operation goes through a hook.

var counter int

func init() {
	programs["lost"] = func(t *testing.T) {
		var wg WaitGroupish
		for i := 0; i < 2; i++ {
			WGAdd("wg.add", &wg.WaitGroup, 1)
			Go("go", func() {
				defer WGDone("done", &wg.WaitGroup)
				v := *R("read", &counter)
				*W("write", &counter) = v + 1
			})
		}
		WGWait("wait", &wg.WaitGroup)
		if *R("check", &counter) != 2 {
			t.Errorf("counter = %d, want 2", counter)
		}
	}
	// counter is reset before every run by the package-state snapshot.
	Globals(func() func() { c := counter; return func() { counter = c } })

	programs["abba"] = func(t *testing.T) {
		var a, b Mutexish
		done := make(chan bool)
		Go("g1", func() {
			Lock("g1.lockA", &a.Mutex)
			Lock("g1.lockB", &b.Mutex)
			Unlock("g1.unlockB", &b.Mutex)
			Unlock("g1.unlockA", &a.Mutex)
			Send("g1.done", done, true)
		})
		Lock("t.lockB", &b.Mutex)
		Lock("t.lockA", &a.Mutex)
		Unlock("t.unlockA", &a.Mutex)
		Unlock("t.unlockB", &b.Mutex)
		Recv("t.wait", done)
	}
	programs["ok"] = func(t *testing.T) {
		var mu Mutexish
		var wg WaitGroupish
		n := 0
		ch := make(chan int)
		res := make(chan int, 3)
		for i := 0; i < 3; i++ {
			WGAdd("add", &wg.WaitGroup, 1)
			Go("worker", func() {
				defer WGDone("done", &wg.WaitGroup)
				v := Recv("recv", ch)
				Lock("lock", &mu.Mutex)
				*W("n", &n) = *R("n", &n) + v
				Unlock("unlock", &mu.Mutex)
				Send("res", res, v)
			})
		}
		for i := 1; i <= 3; i++ {
			Send("send", ch, i)
		}
		WGWait("wait", &wg.WaitGroup)
		Close("close", res)
		sum := 0
		for v, ok := Recv2("range", res); ok; v, ok = Recv2("range", res) {
			sum += v
		}
		if n != 6 || sum != 6 {
			t.Errorf("n=%d sum=%d", n, sum)
		}
	}
	programs["select"] = func(t *testing.T) {
		a := make(chan int, 1)
		b := make(chan int, 1)
		Send("a", a, 1)
		Send("b", b, 2)
		c0, c1 := a, b
		sel := Select("sel", false, RecvCase(c0), RecvCase(c1))
		select {
		case v := <-RecvIf(sel, 0, c0):
			if v == 2 {
				t.Error("case 0 fired")
			}
		case <-RecvIf(sel, 1, c1):
			t.Error("case 1 fired")
		}
	}
	// The sender exits right after its rendezvous, while the receiver (its
	// partner) is still in transit: the receiver computes a while before its
	// next key point, finds nobody current and decides itself. The exiting
	// sender, which was waiting for the transit to end, must not decide
	// again (it would see no enabled goroutine and report a deadlock).
	programs["exitduringtransit"] = func(t *testing.T) {
		ch := make(chan int)
		var mu Mutexish
		Go("sender", func() { Send("send", ch, 1) })
		Recv("recv", ch)
		time.Sleep(5 * time.Millisecond) // computing, no key point
		Lock("after", &mu.Mutex)
		time.Sleep(5 * time.Millisecond) // the sender's decide resumes meanwhile
		Unlock("after", &mu.Mutex)
	}
	programs["leak"] = func(t *testing.T) {
		ch := make(chan int)
		Go("sender", func() { Send("abandoned", ch, 1) })
	}
	programs["dblclose"] = func(t *testing.T) {
		ch := make(chan int)
		Go("closer", func() { Close("close1", ch) })
		Close("close2", ch)
	}
	programs["unlock"] = func(t *testing.T) {
		var m Mutexish
		Unlock("bad", &m.Mutex)
	}
	programs["time"] = func(t *testing.T) {
		start := Now()
		Sleep("sleep", time.Hour)
		// A real clock also moves while goroutines run: a little over the hour.
		if d := Since(start); d <= time.Hour || d > time.Hour+time.Millisecond {
			t.Errorf("slept %v", d)
		}
		ctx, cancel := WithTimeout(contextBackground(), time.Minute)
		defer cancel()
		tick := NewTicker("ticker", 10*time.Second)
		n := 0
	loop:
		for {
			c0, c1 := ctx.Done(), tick.C
			sel := Select("sel", false, RecvCase(c0), RecvCase(c1))
			select {
			case <-RecvIf(sel, 0, c0):
				break loop
			case <-RecvIf(sel, 1, c1):
				n++
			}
		}
		if ctx.Err() == nil || n < 5 || n > 6 {
			t.Errorf("err=%v ticks=%d", ctx.Err(), n)
		}
		// A deadline already passed is expired when WithDeadline returns,
		// as with the context package, not at a later step.
		past, cancelPast := WithDeadline(contextBackground(), Now().Add(-time.Second))
		defer cancelPast()
		if past.Err() != context.DeadlineExceeded {
			t.Errorf("deadline in the past: err=%v", past.Err())
		}
		// So is one nearer than a step (the context package's reading of
		// the clock takes that long); one a few steps away is not.
		tiny, cancelTiny := WithTimeout(contextBackground(), time.Nanosecond)
		defer cancelTiny()
		if tiny.Err() != context.DeadlineExceeded {
			t.Errorf("1 ns timeout: err=%v", tiny.Err())
		}
		short, cancelShort := WithTimeout(contextBackground(), time.Microsecond)
		defer cancelShort()
		if short.Err() != nil {
			t.Errorf("1 µs timeout: err=%v at once", short.Err())
		}
	}
	programs["spin"] = func(t *testing.T) {
		Go("spinner", func() {
			for { // no key point: only the watchdog can help
			}
		})
		Sleep("sleep", time.Millisecond)
	}
	programs["replay"] = func(t *testing.T) {
		x := new(int)
		done := make(chan bool, 2)
		for i := 0; i < 2; i++ {
			Go("go", func() {
				v := *R("read", x)
				Gosched("yield")
				*W("write", x) = v + 1
				Send("done", done, true)
			})
		}
		Recv("wait", done)
		Recv("wait", done)
		if *R("check", x) != 2 {
			t.Errorf("x = %d", *x)
		}
	}
}

func TestLostUpdateIsFound(t *testing.T) {
	s := runChild(t, "lost", Config{Budget: 200, Seed: 1, NoRace: true})
	if kinds(s) != "fail" {
		t.Fatalf("want the lost update as a fail, got %q after %d schedules", kinds(s), s.Schedules)
	}
}

func TestABBADeadlockIsFoundWithBlockedOps(t *testing.T) {
	s := runChild(t, "abba", Config{Budget: 200, Seed: 2})
	if kinds(s) != "deadlock" {
		t.Fatalf("want a deadlock, got %+v", s.Bugs)
	}
	m := s.Bugs[0].Message
	if !strings.Contains(m, "lock at g1.lockB") || !strings.Contains(m, "lock at t.lockA") {
		t.Errorf("deadlock report must name each blocked operation:\n%s", m)
	}
}

func TestCorrectProgramReportsNothing(t *testing.T) {
	s := runChild(t, "ok", Config{Budget: 300, Seed: 3, Continue: true})
	if len(s.Bugs) != 0 || s.Schedules != 300 {
		t.Fatalf("correct program: got bugs %+v in %d schedules", s.Bugs, s.Schedules)
	}
}

func TestExitDuringPartnerTransit(t *testing.T) {
	s := runChild(t, "exitduringtransit", Config{Budget: 10, Seed: 1, Continue: true})
	if len(s.Bugs) != 0 {
		t.Fatalf("correct program: got bugs %+v in %d schedules", s.Bugs, s.Schedules)
	}
}

func TestSelectCoversEveryReadyCase(t *testing.T) {
	s := runChild(t, "select", Config{Budget: 50, Seed: 4})
	if kinds(s) != "fail" {
		t.Fatalf("both ready cases must fire across schedules: %+v", s)
	}
}

func TestLeakPanicAndFatalKinds(t *testing.T) {
	if s := runChild(t, "leak", Config{Budget: 5, Seed: 5}); kinds(s) != "leak" || !strings.Contains(s.Bugs[0].Message, "abandoned") {
		t.Fatalf("want leak at the abandoned send, got %+v", s.Bugs)
	}
	if s := runChild(t, "dblclose", Config{Budget: 50, Seed: 6}); kinds(s) != "panic" || !strings.Contains(s.Bugs[0].Message, "close of closed channel") {
		t.Fatalf("want panic on double close, got %+v", s.Bugs)
	}
	if s := runChild(t, "unlock", Config{Budget: 1, Seed: 7}); kinds(s) != "panic" || !strings.Contains(s.Bugs[0].Message, "unlock of unlocked mutex") {
		t.Fatalf("want unlock-of-unlocked, got %+v", s.Bugs)
	}
}

func TestVirtualTimeAndContexts(t *testing.T) {
	realStart := time.Now()
	s := runChild(t, "time", Config{Budget: 5, Seed: 8, Continue: true})
	if len(s.Bugs) != 0 || s.Schedules != 1 || !s.Exhausted { // one goroutine: one schedule
		t.Fatalf("virtual time: %+v", s)
	}
	if time.Since(realStart) > time.Minute {
		t.Fatal("virtual time slept for real")
	}
}

func TestSpinningGoroutineIsReportedAsHang(t *testing.T) {
	s := runChild(t, "spin", Config{Budget: 1, Seed: 9})
	if kinds(s) != "hang" {
		t.Fatalf("want hang, got %+v", s.Bugs)
	}
}

// A watchdog hang (a goroutine that reached no key point for the hang
// limit, in real time) is reproduced by a replay that stalls there again,
// not by one that reaches the record's end and goes on: such a replay
// confirmed a subtest's long t.Log as a hang (zitadel/oidc).
func TestSpinningHangReplaysOnlyIfItStallsAgain(t *testing.T) {
	s := runChild(t, "spin", Config{Budget: 1, Seed: 9})
	if kinds(s) != "hang" || !strings.Contains(s.Bugs[0].Message, spinningHang) {
		t.Fatalf("want a spinning hang, got %+v", s.Bugs)
	}
	if rs := runChild(t, "spin", Config{Replay: s.Bugs[0].Replay}); rs.Diverged != "" || kinds(rs) != "hang" {
		t.Fatalf("the replay of a goroutine that spins again: diverged=%q bugs=%+v", rs.Diverged, rs.Bugs)
	}
	f := runChild(t, "replay", Config{Budget: 300, Seed: 10, NoRace: true})
	if len(f.Bugs) != 1 {
		t.Fatalf("want one bug, got %+v", f.Bugs)
	}
	tr, err := trace.ReadFile(f.Bugs[0].Replay)
	if err != nil {
		t.Fatal(err)
	}
	tr.Kind, tr.Location = "hang", ""
	tr.Message = "goroutine g0.1 ran for over 5s " + spinningHang
	tr.Entries = tr.Entries[:len(tr.Entries)/2]
	file := filepath.Join(t.TempDir(), "spun.period")
	if err := tr.WriteFile(file); err != nil {
		t.Fatal(err)
	}
	if rs := runChild(t, "replay", Config{Replay: file, NoRace: true}); rs.Diverged == "" || kinds(rs) == "hang" {
		t.Fatalf("a program that goes on past the record's end did not hang again: diverged=%q bugs=%+v", rs.Diverged, rs.Bugs)
	}
}

func TestReplayReproducesEveryTime(t *testing.T) {
	s := runChild(t, "replay", Config{Budget: 300, Seed: 10, NoRace: true})
	if len(s.Bugs) != 1 {
		t.Fatalf("want one bug, got %+v", s.Bugs)
	}
	tr, err := trace.ReadFile(s.Bugs[0].Replay)
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for i := 0; i < 10; i++ {
		rs := runChild(t, "replay", Config{Replay: s.Bugs[0].Replay, NoRace: true})
		if rs.Diverged != "" || kinds(rs) != "fail" {
			t.Fatalf("replay %d: diverged=%q bugs=%+v", i, rs.Diverged, rs.Bugs)
		}
		if i == 0 {
			first = rs.Bugs[0].Message
		} else if rs.Bugs[0].Message != first {
			t.Fatalf("replay %d differs", i)
		}
	}
	// A record that does not match the program is a divergence, not followed blindly.
	tr.Entries[len(tr.Entries)/2].Site = "elsewhere"
	bad := filepath.Join(t.TempDir(), "bad.period")
	tr.WriteFile(bad)
	rs := runChild(t, "replay", Config{Replay: bad, NoRace: true})
	if rs.Diverged == "" {
		t.Fatal("a replay that does not match the program must report a divergence")
	}
}

func init() {
	// A goroutine started by code Period does not instrument (here, a plain
	// go statement) runs instrumented code: its key points are counted.
	programs["outside"] = func(t *testing.T) {
		done := make(chan bool)
		go func() {
			Gosched("outside.yield")
			Gosched("outside.yield")
			done <- true
		}()
		<-done
	}
	programs["inside"] = func(t *testing.T) {
		Go("go", func() { Gosched("inside.yield") })
	}
}

func TestUncontrolledKeyPointsAreCounted(t *testing.T) {
	if s := runChild(t, "outside", Config{Budget: 3, Seed: 1}); s.Uncontrolled != 6 {
		t.Errorf("3 schedules with 2 key points each outside control: Uncontrolled = %d, want 6", s.Uncontrolled)
	}
	if s := runChild(t, "inside", Config{Budget: 3, Seed: 1}); s.Uncontrolled != 0 {
		t.Errorf("controlled goroutines only: Uncontrolled = %d, want 0", s.Uncontrolled)
	}
}

// A test with one goroutine, or whose goroutines never run side by side,
// has one schedule: exploration stops after it, exhausted. A select choice
// or a random number is an alternative too: those are explored.
func init() {
	programs["sequential"] = func(t *testing.T) {
		ch := make(chan int, 1)
		Send("send", ch, 1)
		Recv("recv", ch)
		done := make(chan struct{})
		Go("go", func() { Close("close", done) })
		Recv("wait", done)
	}
	programs["twoready"] = func(t *testing.T) {
		a, b := make(chan int, 1), make(chan int, 1)
		Send("a", a, 1)
		Send("b", b, 1)
		SelectDone(Select("select", false, RecvCase(a), RecvCase(b)))
	}
}

func TestOnlyScheduleEndsExploration(t *testing.T) {
	if s := runChild(t, "sequential", Config{Budget: 20, Seed: 1}); s.Schedules != 1 || !s.Exhausted {
		t.Errorf("sequential: %d schedules, exhausted %v; want 1, true", s.Schedules, s.Exhausted)
	}
	if s := runChild(t, "twoready", Config{Budget: 20, Seed: 1}); s.Schedules != 20 || s.Exhausted {
		t.Errorf("a select between two ready cases: %d schedules, exhausted %v; want 20, false", s.Schedules, s.Exhausted)
	}
}

func init() {
	// The reader waits for real on a pipe that a goroutine outside control
	// writes after PERIOD_TEST_READ_DELAY: real I/O, not the schedule,
	// decides when the reader is back at its key point.
	programs["realread"] = func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		delay, _ := time.ParseDuration(os.Getenv("PERIOD_TEST_READ_DELAY"))
		go func() {
			time.Sleep(delay)
			w.Write([]byte{1})
			w.Close()
		}()
		done := make(chan string, 2)
		Go("go.reader", func() {
			b := make([]byte, 1)
			r.Read(b)
			Send("reader.done", done, "reader")
		})
		Go("go.other", func() {
			Gosched("other.yield")
			Send("other.done", done, "other")
		})
		first := Recv("wait.first", done)
		Recv("wait.second", done)
		if first == "reader" {
			t.Error("the reader came first")
		}
	}
}

// A replay waits for a goroutine that the exploration met back from real
// I/O at once and the replay finds still blocked for real (detached):
// following the record, it is the next to step. Before, the replay
// diverged ("it is not enabled"); go-oidc's key set fetch over loopback
// HTTP replayed one time in three.
func TestReplayWaitsForGoroutineBackFromRealIO(t *testing.T) {
	t.Setenv("PERIOD_TEST_READ_DELAY", "0s")
	s := runChild(t, "realread", Config{Budget: 100, Seed: 3, NoRace: true})
	if kinds(s) != "fail" {
		t.Fatalf("want the reader first in some schedule, got %+v", s)
	}
	t.Setenv("PERIOD_TEST_READ_DELAY", "300ms")
	for i := 0; i < 3; i++ {
		rs := runChild(t, "realread", Config{Replay: s.Bugs[0].Replay, NoRace: true})
		if rs.Diverged != "" || kinds(rs) != "fail" {
			t.Fatalf("replay %d with the read 300ms late: diverged=%q bugs=%+v", i, rs.Diverged, rs.Bugs)
		}
	}
	// Past the hang limit (1s here) the replay says where it diverged.
	t.Setenv("PERIOD_TEST_READ_DELAY", "3s")
	if rs := runChild(t, "realread", Config{Replay: s.Bugs[0].Replay, NoRace: true}); !strings.Contains(rs.Diverged, "is not enabled") {
		t.Fatalf("replay with the read 3s late: want a divergence, got %+v", rs)
	}
}
