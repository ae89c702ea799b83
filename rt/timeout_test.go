//go:build go1.21

package rt

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// silentPipe is read by a goroutine of silentoutside and never written.
var silentPipe, silentPipeW, _ = os.Pipe()

func init() {
	// The test waits for a value nobody will send while a ticker keeps
	// the clock moving: natively it would tick until go test's -timeout.
	programs["tickedforever"] = func(t *testing.T) {
		tk := NewTicker("ticker", time.Second)
		Go("ticking", func() {
			for {
				Recv("tick", tk.C)
			}
		})
		never := make(chan int)
		Recv("wait", never)
	}
	// The test waits while a ticker ticks, beside a goroutine outside
	// control (started by a plain go statement) that ran the program's
	// code and then blocked for good in a read of a pipe: each tick's
	// jump waits in real time for it.
	programs["silentoutside"] = func(t *testing.T) {
		tk := NewTicker("ticker", 10*time.Millisecond)
		Go("ticking", func() {
			for {
				Recv("tick", tk.C)
			}
		})
		started := make(chan int)
		go func() {
			Close("started", started)
			buf := make([]byte, 1)
			silentPipe.Read(buf)
		}()
		Recv("started", started)
		never := make(chan int)
		Recv("wait", never)
	}
	// Goroutines the test leaves behind panic 42 virtual seconds after it
	// returned, or as soon as it did.
	programs["panicslate"] = func(t *testing.T) {
		Go("poller", func() {
			Sleep("poll", 42*time.Second)
			var m map[string]int
			m["x"] = 1
		})
	}
	programs["panicsatonce"] = func(t *testing.T) {
		done := make(chan int)
		Go("watcher", func() {
			Recv("done", done)
			var m map[string]int
			m["x"] = 1
		})
		Close("close", done)
	}
	// A goroutine the test leaves behind forces the process to exit 21
	// virtual seconds after it returned (benthos's shutdown watchdog), or
	// as soon as it did.
	programs["exitslate"] = func(t *testing.T) {
		Go("forcer", func() {
			Recv("grace", After("grace", 21*time.Second))
			Exit("exit", 1)
		})
	}
	programs["exitsatonce"] = func(t *testing.T) {
		done := make(chan int)
		Go("forcer", func() {
			Recv("done", done)
			Exit("exit", 1)
		})
		Close("close", done)
	}
	// The test computes for three seconds of real time without a key
	// point (detached) while a janitor's hourly ticker waits: the clock
	// jumps past it, but the test is not stuck.
	programs["computingbesidejanitor"] = func(t *testing.T) {
		tk := NewTicker("janitor", time.Hour)
		Go("janitor", func() {
			for {
				Recv("tick", tk.C)
			}
		})
		x := new(int)
		for start := time.Now(); time.Since(start) < 3*time.Second; {
			*W("compute", x)++
		}
		TickerStop("stop", tk)
	}
	// A request waits for real (a pipe read stands for net/http's
	// connection) until code outside control sees its context's 50 ms
	// deadline (the transport watching Done) and ends it; the test guards
	// it with a 30 s timer, which must not win.
	programs["ctxendsrealwait"] = func(t *testing.T) {
		ctx, cancel := WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		r, w, _ := os.Pipe()
		defer r.Close()
		go func() { // the transport
			<-ctx.Done()
			w.Close()
		}()
		res := make(chan error, 1)
		Go("request", func() {
			_, err := IO(r).Read(make([]byte, 1))
			Send("result", res, err)
		})
		guard := After("guard", 30*time.Second)
		k := Select("wait", false, RecvCase(res), RecvCase(guard))
		select {
		case <-RecvIf(k, 0, res):
			SelectDone(k)
		case <-RecvIf(k, 1, guard):
			SelectDone(k)
			t.Error("the 30 s guard fired before the 50 ms deadline ended the request")
		}
	}
	// The same wait ends after 58 virtual minutes of ticks: no hang.
	programs["tickedlong"] = func(t *testing.T) {
		tk := NewTicker("ticker", time.Second)
		done := make(chan int)
		Go("ticking", func() {
			for i := 0; i < 58*60; i++ {
				Recv("tick", tk.C)
			}
			TickerStop("stop", tk)
			Close("close", done)
		})
		Recv("wait", done)
	}
}

// TestVirtualTimeout: a test blocked while only timers fire is a hang once
// an hour of virtual time has passed, located where the test waits; one that
// returns before that is not.
func TestVirtualTimeout(t *testing.T) {
	s := runChild(t, "tickedforever", Config{Budget: 1, Seed: 1, NoRace: true, MaxSteps: 100000})
	if len(s.Bugs) != 1 || s.Bugs[0].Kind != "hang" || s.Bugs[0].Location != "wait" || !strings.Contains(s.Bugs[0].Message, "it waited for 1h0m0s of virtual time") {
		t.Errorf("want a hang at the test's wait after an hour of virtual time: %+v", s.Bugs)
	}
	s = runChild(t, "computingbesidejanitor", Config{Budget: 1, Seed: 1, NoRace: true, Leaks: "blocked", MaxSteps: 100000, Watchdog: 20 * time.Millisecond, HangAfter: 300 * time.Millisecond})
	for _, b := range s.Bugs {
		if b.Kind == "hang" {
			t.Errorf("a test computing detached beside an hourly timer: %+v", b)
		}
	}
	s = runChild(t, "tickedlong", Config{Budget: 3, Seed: 1, NoRace: true, MaxSteps: 100000})
	if len(s.Bugs) != 0 {
		t.Errorf("a test that returns after 58 virtual minutes: want no bug, got %+v", s.Bugs)
	}
}

// TestDeadlineEndsRealWait: after a context's deadline fires, the clock
// waits for what its Done wakes outside control before the next jump.
func TestDeadlineEndsRealWait(t *testing.T) {
	s := runChild(t, "ctxendsrealwait", Config{Budget: 3, Seed: 1, NoRace: true, Leaks: "blocked"})
	if len(s.Bugs) != 0 || s.Schedules != 3 {
		t.Errorf("want 3 runs without a bug: %+v", s)
	}
}

// TestSilentOutsideIsAbandoned: a run whose clock keeps waiting for a
// goroutine outside control that gives no sign of life is abandoned with a
// note, not left to tick in real time, and is no verdict.
func TestSilentOutsideIsAbandoned(t *testing.T) {
	s := runChild(t, "silentoutside", Config{Budget: 2, Seed: 1, NoRace: true, MaxSteps: 1000000, Watchdog: 20 * time.Millisecond, HangAfter: 100 * time.Millisecond})
	if len(s.Bugs) != 0 || s.Abandoned != 1 || !strings.Contains(s.AbandonedWhy, "no sign of life") {
		t.Errorf("want no verdict and an abandoned schedule: %+v", s)
	}
}

// TestLatePanicIsALeak: a goroutine left running that panics long after
// its test returned (go test would show it only in a binary that lives that
// long) is reported as a leak that panicked; one that panics as the test
// ends is a panic.
func TestLatePanicIsALeak(t *testing.T) {
	s := runChild(t, "panicslate", Config{Budget: 1, Seed: 1, NoRace: true})
	if len(s.Bugs) != 1 || s.Bugs[0].Kind != "leak" || !strings.Contains(s.Bugs[0].Message, "(created at poller by ") || !strings.Contains(s.Bugs[0].Message, "outlived the test and panicked 42s") || s.Bugs[0].Created != "poller" {
		t.Errorf("want a leak that panicked 42 s after the test: %+v", s.Bugs)
	}
	s = runChild(t, "panicsatonce", Config{Budget: 1, Seed: 1, NoRace: true})
	if len(s.Bugs) != 1 || s.Bugs[0].Kind != "panic" {
		t.Errorf("want a panic: %+v", s.Bugs)
	}
}

// TestLateExitIsALeak: os.Exit called by a goroutine left behind, long
// after the test returned in virtual time, is a leak (go test's binary has
// exited by then); called at once, it is what go test shows.
func TestLateExitIsALeak(t *testing.T) {
	s := runChild(t, "exitslate", Config{Budget: 1, Seed: 1, NoRace: true})
	if len(s.Bugs) != 1 || s.Bugs[0].Kind != "leak" || !strings.Contains(s.Bugs[0].Message, "outlived the test and called os.Exit(1) 21s") || s.Bugs[0].Created != "forcer" {
		t.Errorf("want a leak that exited 21 s after the test: %+v", s.Bugs)
	}
	s = runChild(t, "exitsatonce", Config{Budget: 1, Seed: 1, NoRace: true})
	if len(s.Bugs) != 1 || s.Bugs[0].Kind != "panic" || !strings.Contains(s.Bugs[0].Message, "os.Exit(1) called by goroutine") {
		t.Errorf("want os.Exit as a panic: %+v", s.Bugs)
	}
}

// TestOutsideSetGone: the clock stops waiting for goroutines outside
// control once all of those that ran the program's code have exited.
func TestOutsideSetGone(t *testing.T) {
	var s outsideSet
	if s.gone() {
		t.Fatal("an empty set is gone: a run without goroutines outside control would not wait for new ones")
	}
	ids := make(chan int64)
	release := make(chan struct{})
	go func() {
		ids <- goid()
		<-release
	}()
	s.add(<-ids)
	if s.gone() {
		t.Fatal("a live goroutine was taken as gone")
	}
	close(release)
	for i := 0; ; i++ {
		s.lookedAt = time.Time{} // look now, not at the next outsideLookEvery
		if s.gone() {
			break
		}
		if i == 1000 {
			t.Fatal("a goroutine that exited is still taken as alive")
		}
		time.Sleep(time.Millisecond)
	}
	s.reset()
	for i := int64(0); i <= maxOutsideGs; i++ {
		s.add(1<<40 + i) // ids no goroutine has
	}
	if s.gone() {
		t.Error("more goroutines than the set tracks were taken as gone")
	}
}
