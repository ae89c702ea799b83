//go:build go1.21

package rt

import (
	"fmt"
	"math/rand"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/period-dev/period/strategy"
)

// testRecord is testRandom that also appends every run (its interleaving and
// whether it found a bug) to the file named by PERIOD_TEST_RECORD, so that
// two explorations can be compared schedule by schedule.
type testRecord struct {
	testRandom
	path string
}

func (s *testRecord) Name() string { return "test-record" }
func (s *testRecord) End(r *strategy.Run) {
	var b strings.Builder
	fmt.Fprintf(&b, "s%d buggy=%v cut=%v:", r.Index+1, r.Buggy, r.Cut)
	for _, ev := range r.Events {
		fmt.Fprintf(&b, " %s/%s/%s", r.Paths[ev.G], ev.Op, ev.Site) // not Obj: an address
	}
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		panic(err)
	}
	fmt.Fprintln(f, b.String())
	f.Close()
}

func init() {
	strategy.Register("test-record", func(o strategy.Options) strategy.Strategy {
		return &testRecord{testRandom: testRandom{r: rand.New(rand.NewSource(o.Seed)), max: o.Budget}, path: os.Getenv("PERIOD_TEST_RECORD")}
	})
	// bench/goctxleak: the producer checks its context, then sends. Between
	// key points, the code after a rendezvous calls the virtual context
	// (cancel, Err), which is not a key point; real jitter makes any overlap
	// of the two goroutines' code show as a different outcome. The jitter
	// spins rather than sleeps: a goroutine in a real sleep for 20 ms is
	// detached by design (a dependency's backoff), and under load a 300 µs
	// sleep lasted that long (one schedule of 60 differed, 1 run in 30).
	jitter := func() {
		for d, start := time.Duration(rand.Intn(300))*time.Microsecond, time.Now(); time.Since(start) < d; {
		}
	}
	programs["ctxrace"] = func(t *testing.T) {
		ctx, cancel := WithCancel(contextBackground())
		out := make(chan int)
		Go("go", func() {
			for i := 1; i <= 3; i++ {
				jitter()
				if ctx.Err() != nil {
					return
				}
				Send("send", out, i)
			}
			Close("close", out)
		})
		v := Recv("recv", out)
		jitter()
		cancel()
		if v != 1 {
			t.Errorf("first = %d", v)
		}
	}
	// Virtual time: a ticker polled in a select with default and Gosched, a
	// deadline loop that only reads the clock, a sleep and an AfterFunc
	// while the poller runs. The steps at which timers fire, and what the
	// poller sees, are functions of the schedule only.
	programs["timedrift"] = func(t *testing.T) {
		tk := NewTicker("tick", 10*time.Microsecond)
		var stop atomic.Bool
		ticks := 0
		done := make(chan struct{})
		Go("go", func() {
			for !AtomicLoad("load", &stop).Load() {
				sel := Select("sel", true, RecvCase(tk.C))
				select {
				case <-RecvIf(sel, 0, tk.C):
					SelectDone(sel)
					ticks++
				case <-DefaultIf(sel):
				}
				Gosched("yield")
			}
			Close("close", done)
		})
		fired := make(chan struct{}, 1)
		AfterFunc("afterfunc", 20*time.Microsecond, func() { Send("fired", fired, struct{}{}) })
		start := Now()
		for Since(start) < 50*time.Microsecond {
		}
		Sleep("sleep", 30*time.Microsecond)
		AtomicStore("store", &stop).Store(true)
		Recv("done", done)
		Recv("fired", fired)
		TickerStop("stop", tk)
		if ticks > 4 {
			t.Errorf("%d ticks", ticks)
		}
	}
	// The same check-then-act race through a select on both sides.
	programs["ctxraceselect"] = func(t *testing.T) {
		ctx, cancel := WithCancel(contextBackground())
		out := make(chan int)
		Go("go", func() {
			for i := 1; i <= 3; i++ {
				jitter()
				if ctx.Err() != nil {
					return
				}
				sel := Select("psel", false, SendCase(out))
				select {
				case SendIf(sel, 0, out) <- i:
					SelectDone(sel)
				}
			}
		})
		sel := Select("rsel", false, RecvCase(out))
		select {
		case <-RecvIf(sel, 0, out):
			SelectDone(sel)
		}
		jitter()
		cancel()
	}
}

// TestSameSeedSameSchedules: one seed, two explorations, every schedule the
// same interleaving with the same outcome. The goroutines woken by a
// rendezvous used to run on together up to their next key points, so that
// uncontrolled code between them (here a context's cancel and Err) decided
// some schedules' outcome by real timing (bench/goctxleak: 508 then 509
// buggy schedules of 1000 with the same seed).
func TestSameSeedSameSchedules(t *testing.T) {
	// timedrift-early: the same program with timers that may fire early
	// (engine.early), a choice the strategy makes: recorded, so repeated.
	for _, name := range []string{"ctxrace", "ctxraceselect", "timedrift", "timedrift-early"} {
		prog, early := strings.CutSuffix(name, "-early")
		t.Run(name, func(t *testing.T) {
			var runs [2][]string
			for i := range runs {
				rec := t.TempDir() + "/record"
				t.Setenv("PERIOD_TEST_RECORD", rec)
				cfg := Config{Strategy: "test-record", Budget: 60, Seed: 3, Continue: true, NoRace: true}
				if early {
					cfg.EarlyTimers = DefaultEarlyTimers
				}
				s := runChild(t, prog, cfg)
				data, err := os.ReadFile(rec)
				if err != nil {
					t.Fatal(err)
				}
				runs[i] = strings.Split(strings.TrimSpace(string(data)), "\n")
				if len(runs[i]) != s.Schedules || s.Schedules != 60 {
					t.Fatalf("%d schedules recorded, %d explored", len(runs[i]), s.Schedules)
				}
			}
			buggy := 0
			for k := range runs[0] {
				if runs[0][k] != runs[1][k] {
					t.Errorf("same seed, schedule %d differs:\n  %s\n  %s", k+1, runs[0][k], runs[1][k])
				}
				if strings.Contains(runs[0][k], "buggy=true") {
					buggy++
				}
			}
			if prog != "timedrift" && (buggy == 0 || buggy == len(runs[0])) {
				t.Errorf("%d of %d schedules leak: the program should leak in some schedules only", buggy, len(runs[0]))
			}
			var bodies []string // the interleavings, without the schedule number
			for _, r := range runs[0] {
				_, body, _ := strings.Cut(r, " ")
				bodies = append(bodies, body)
			}
			slices.Sort(bodies)
			if distinct := len(slices.Compact(bodies)); distinct < 2 {
				t.Errorf("only %d distinct schedules of %d: the test shows nothing about determinism", distinct, len(runs[0]))
			}
		})
	}
}
