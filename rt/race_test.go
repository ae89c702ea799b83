//go:build go1.21

package rt

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Racy and race-free twins for every kind of synchronisation the race
// detector understands. A twin differs from its racy sibling only by the
// synchronisation, so a false positive or a missed race shows up as a
// disagreement.
var raceTwins = map[string]struct {
	racy bool
	body func(t *testing.T)
}{
	"plain": {true, func(t *testing.T) {
		x := new(int)
		done := make(chan bool, 1)
		Go("go", func() { *W("child.write", x) = 1; Send("done", done, true) })
		*W("parent.write", x) = 2
		Recv("wait", done)
	}},
	"mutex": {false, func(t *testing.T) {
		x := new(int)
		var mu sync.Mutex
		done := make(chan bool, 1)
		Go("go", func() {
			Lock("l", &mu)
			*W("child.write", x) = 1
			Unlock("u", &mu)
			Send("done", done, true)
		})
		Lock("l", &mu)
		*W("parent.write", x) = 2
		Unlock("u", &mu)
		Recv("wait", done)
	}},
	"unbuffered": {false, func(t *testing.T) {
		x := new(int)
		ch := make(chan int)
		Go("go", func() { *W("child.write", x) = 1; Send("send", ch, 1) })
		Recv("recv", ch)
		*W("parent.write", x) = 2
	}},
	"unbuffered-recv-before-send-completes": {false, func(t *testing.T) {
		x := new(int)
		ch := make(chan int)
		Go("go", func() { Recv("recv", ch); *W("child.write", x) = 1 })
		*W("parent.write", x) = 2
		Send("send", ch, 1)
	}},
	"buffered-capacity-semaphore": {false, func(t *testing.T) {
		x := new(int)
		sem := make(chan struct{}, 1)
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			WGAdd("add", &wg, 1)
			Go("go", func() {
				defer WGDone("done", &wg)
				Send("acquire", sem, struct{}{})
				*W("write", x) = *R("read", x) + 1
				Recv("release", sem)
			})
		}
		WGWait("wait", &wg)
	}},
	"buffered-no-order-between-senders": {true, func(t *testing.T) {
		x := new(int)
		ch := make(chan int, 2)
		Go("go", func() { *W("child.write", x) = 1; Send("s1", ch, 1) })
		*W("parent.write", x) = 2
		Send("s2", ch, 2)
		Recv("r", ch)
		Recv("r", ch)
	}},
	"close": {false, func(t *testing.T) {
		x := new(int)
		ch := make(chan int)
		Go("go", func() { *W("child.write", x) = 1; Close("close", ch) })
		Recv("recv", ch)
		_ = *R("parent.read", x)
	}},
	"waitgroup": {false, func(t *testing.T) {
		x := new(int)
		var wg sync.WaitGroup
		WGAdd("add", &wg, 1)
		Go("go", func() { *W("child.write", x) = 1; WGDone("done", &wg) })
		WGWait("wait", &wg)
		_ = *R("parent.read", x)
	}},
	"waitgroup-missing": {true, func(t *testing.T) {
		x := new(int)
		var wg sync.WaitGroup
		WGAdd("add", &wg, 1)
		Go("go", func() { WGDone("done", &wg); *W("child.write", x) = 1 })
		WGWait("wait", &wg)
		_ = *R("parent.read", x)
	}},
	"once": {false, func(t *testing.T) {
		x := new(int)
		var once sync.Once
		done := make(chan bool, 1)
		Go("go", func() {
			OnceDo("once", &once, func() { *W("init", x) = 1 })
			_ = *R("child.read", x)
			Send("d", done, true)
		})
		OnceDo("once", &once, func() { *W("init", x) = 1 })
		_ = *R("parent.read", x)
		Recv("w", done)
	}},
	"atomic-flag": {false, func(t *testing.T) {
		x := new(int)
		var flag atomic.Int32
		Go("go", func() { *W("child.write", x) = 1; Atomic("store", &flag).Store(1) })
		for Atomic("load", &flag).Load() == 0 {
			Gosched("spin")
		}
		_ = *R("parent.read", x)
	}},
	"atomic-store-plain-read": {true, func(t *testing.T) {
		n := new(int64)
		done := make(chan bool, 1)
		Go("go", func() { atomic.StoreInt64(AtomicStore("store", n), 1); Send("done", done, true) })
		_ = *R("parent.read", n)
		Recv("wait", done)
	}},
	// Reads again and again at one site, as a loop over a table does
	// (the same-epoch reads that checkAccess records once), with an
	// unordered write between them, plain or atomic.
	"rereads-plain-write":  {true, rereadsAround(func(n *int64) { *W("child.write", n) = 1 })},
	"rereads-atomic-store": {true, rereadsAround(func(n *int64) { atomic.StoreInt64(AtomicStore("store", n), 1) })},
	"atomic-load-plain-read": {false, func(t *testing.T) {
		n := new(int64)
		done := make(chan bool, 1)
		Go("go", func() { atomic.LoadInt64(AtomicLoad("load", n)); Send("done", done, true) })
		_ = *R("parent.read", n)
		Recv("wait", done)
	}},
	// The access of an atomic store is in the clock it releases: a plain
	// read after the load that saw it is ordered.
	"atomic-publish-same-var": {false, func(t *testing.T) {
		n := new(int64)
		Go("go", func() { atomic.StoreInt64(AtomicStore("store", n), 1) })
		for atomic.LoadInt64(AtomicLoad("load", n)) == 0 {
			Gosched("spin")
		}
		_ = *R("parent.read", n)
	}},
	"atomic-loads-order-nothing": {true, func(t *testing.T) {
		x := new(int)
		var flag atomic.Int32
		done := make(chan bool, 1)
		Go("go", func() { *W("child.write", x) = 1; AtomicLoad("load", &flag).Load(); Send("done", done, true) })
		AtomicLoad("load", &flag).Load()
		_ = *R("parent.read", x)
		Recv("wait", done)
	}},
	// An Add from zero in a goroutine not ordered after a blocked Wait.
	"waitgroup-add-during-wait": {true, func(t *testing.T) {
		var wg sync.WaitGroup
		WGAdd("add", &wg, 1)
		first := make(chan bool, 1)
		done := make(chan bool, 1)
		Go("go1", func() { WGDone("done1", &wg); Send("first", first, true) })
		Go("go2", func() {
			Recv("first", first)
			Sleep("sleep", time.Millisecond) // the Wait returns first: no reuse panic, only the race
			WGAdd("late.add", &wg, 1)
			WGDone("done2", &wg)
			Send("done", done, true)
		})
		WGWait("wait", &wg)
		Recv("joined", done)
	}},
	"waitgroup-reuse-by-waiter": {false, func(t *testing.T) {
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			WGAdd("add", &wg, 1)
			Go("go", func() { WGDone("done", &wg) })
			WGWait("wait", &wg)
		}
	}},
	// A range over a sync.Map meets a value another goroutine stored
	// while the range went on (the callback's key points let it run):
	// the Store published what was written before it.
	"syncmap-range": {false, func(t *testing.T) {
		var m sync.Map
		SyncMap("setup", &m).Store(1, new(int))
		SyncMap("setup", &m).Store(2, new(int))
		done := make(chan bool)
		Go("go", func() {
			x := new(int)
			*W("child.write", x) = 1
			SyncMap("store", &m).Store(1, x)
			SyncMap("store", &m).Store(2, x)
			Send("done", done, true)
		})
		SyncMapRange("range", &m, func(k, v any) bool {
			Gosched("yield")
			_ = *R("range.read", v.(*int))
			return true
		})
		Recv("done", done)
	}},
	// Goroutines started one after another take the slots of ended ones
	// (race.go): a slot's new holder must be ordered after all the old one
	// did, or the detector, which skips same-slot pairs, misses a race.
	"slots-ordered": {false, func(t *testing.T) {
		x := new(int)
		ch := make(chan int)
		for i := 0; i < 20; i++ {
			Go("go", func() { *W("child.write", x) = i; Send("send", ch, 1) })
			Recv("recv", ch)
			Gosched("yield")
		}
	}},
	"slots-write-after-send": {true, func(t *testing.T) {
		x := new(int)
		ch := make(chan int)
		for i := 0; i < 20; i++ {
			Go("go", func() { Send("send", ch, 1); *W("child.write", x) = i })
			Recv("recv", ch)
			Gosched("yield")
		}
	}},
	"slots-never-joined": {true, func(t *testing.T) {
		x := new(int)
		for i := 0; i < 20; i++ {
			Go("go", func() { *W("child.write", x) = i })
			Gosched("yield")
			Gosched("yield")
		}
	}},
	// A goroutine outside control (a plain go statement here: a net/http
	// transport's) relays the child's past to the parent through a
	// WaitGroup or a mutex: it received it on a channel.
	"outside-relay-waitgroup": {false, func(t *testing.T) {
		x := new(int)
		ch := make(chan int)
		var wg sync.WaitGroup
		WGAdd("add", &wg, 1)
		go func() { Recv("relay.recv", ch); WGDone("relay.done", &wg) }()
		Go("go", func() { *W("child.write", x) = 1; Send("send", ch, 1) })
		WGWait("wait", &wg)
		_ = *R("parent.read", x)
	}},
	"outside-relay-own-count": {false, func(t *testing.T) {
		x := new(int)
		ch := make(chan int)
		var wg sync.WaitGroup
		added := make(chan bool)
		go func() {
			WGAdd("relay.add", &wg, 1)
			close(added)
			Recv("relay.recv", ch)
			WGDone("relay.done", &wg)
		}()
		<-added
		Go("go", func() { *W("child.write", x) = 1; Send("send", ch, 1) })
		WGWait("wait", &wg)
		_ = *R("parent.read", x)
	}},
	"outside-relay-mutex": {false, func(t *testing.T) {
		x := new(int)
		ch := make(chan int)
		var mu sync.Mutex
		ready := false
		go func() {
			Recv("relay.recv", ch)
			Lock("relay.lock", &mu)
			ready = true
			Unlock("relay.unlock", &mu)
		}()
		Go("go", func() { *W("child.write", x) = 1; Send("send", ch, 1) })
		for {
			Lock("poll.lock", &mu)
			r := ready
			Unlock("poll.unlock", &mu)
			if r {
				break
			}
			Sleep("poll.sleep", time.Millisecond)
		}
		_ = *R("parent.read", x)
	}},
	"cond": {false, func(t *testing.T) {
		x := new(int)
		var mu sync.Mutex
		c := NewCond(&mu)
		ready := new(bool)
		Go("go", func() {
			*W("child.write", x) = 1
			Lock("l", &mu)
			*W("ready", ready) = true
			CondSignal("signal", c)
			Unlock("u", &mu)
		})
		Lock("l", &mu)
		for !*R("ready", ready) {
			CondWait("wait", c)
		}
		Unlock("u", &mu)
		_ = *R("parent.read", x)
	}},
}

func init() {
	for name, tw := range raceTwins {
		programs["race-"+name] = tw.body
	}
}

func TestRaceDetectionTwins(t *testing.T) {
	for name, tw := range raceTwins {
		name, tw := name, tw
		t.Run(name, func(t *testing.T) {
			s := runChild(t, "race-"+name, Config{Budget: 100, Seed: 11, Continue: true})
			var races []string
			for _, b := range s.Bugs {
				if b.Kind == "race" {
					races = append(races, b.Message)
				} else {
					t.Errorf("unexpected %s: %s", b.Kind, b.Message)
				}
			}
			if tw.racy && len(races) == 0 {
				t.Errorf("racy program: no race found in %d schedules", s.Schedules)
			}
			if !tw.racy && len(races) > 0 {
				t.Errorf("race-free program: false positive:\n%s", strings.Join(races, "\n"))
			}
		})
	}
}

// One racing pair of sites is one report, whatever the kinds of its
// accesses: here a write/write and a read/write between the same two sites.
func TestRacePairReportedOnce(t *testing.T) {
	s := runChild(t, "race-pair-once", Config{Budget: 50, Seed: 3, Continue: true})
	races := 0
	for _, b := range s.Bugs {
		if b.Kind == "race" {
			races++
		}
	}
	if races != 1 {
		t.Errorf("%d race reports for one pair of sites, want 1: %+v", races, s.Bugs)
	}
}

func init() {
	programs["race-pair-once"] = func(t *testing.T) {
		x := new(int)
		done := make(chan bool, 1)
		Go("go", func() {
			*W("a", x) = 1
			_ = *R("a", x)
			Send("done", done, true)
		})
		*W("b", x) = 2
		_ = *R("b", x)
		*W("b", x) = 3
		Recv("wait", done)
	}
}

// A waiter woken when the counter reached zero finds it raised again by the
// next round's Add: Go panics, and -race sees the Add race with the Wait.
func TestWaitGroupReuseBeforeWaitReturned(t *testing.T) {
	s := runChild(t, "wg-reuse", Config{Budget: 200, Seed: 7, Continue: true})
	var panicked, raced bool
	for _, b := range s.Bugs {
		switch {
		case b.Kind == "panic" && strings.Contains(b.Message, "sync: WaitGroup is reused before previous Wait has returned"):
			panicked = true
		case b.Kind == "race" && strings.Contains(b.Message, "WaitGroup.Add from zero by goroutine g0 at main.add2") && strings.Contains(b.Message, "WaitGroup.Wait by goroutine g0.1 at waiter.wait"):
			raced = true
		default:
			t.Errorf("unexpected %s: %s", b.Kind, b.Message)
		}
	}
	if !panicked || !raced {
		t.Errorf("want the reuse panic (%v) and the race (%v) in %d schedules: %+v", panicked, raced, s.Schedules, s.Bugs)
	}
}

func init() {
	programs["wg-reuse"] = func(t *testing.T) {
		var wg sync.WaitGroup
		done := make(chan bool, 1)
		WGAdd("main.add1", &wg, 1)
		Go("waiter", func() { WGWait("waiter.wait", &wg); Send("waiter.done", done, true) })
		Gosched("main.yield")
		WGDone("main.done1", &wg)
		WGAdd("main.add2", &wg, 1) // the next round, maybe before the waiter returned
		WGDone("main.done2", &wg)
		Recv("main.joined", done)
	}
}

// janitorAfterReturn: the test starts a janitor that ticks every minute and
// reads a variable the test then writes without synchronisation, and
// returns. go test never waits the minute; Period wakes the janitor after
// the test returned only to tell a leak, so the read it makes then is no
// race report (a cache's janitor against a test that swaps its clock
// function: Code-Hex/go-generics-cache's TestDeleteExpired).
func janitorAfterReturn(t *testing.T) {
	now := new(int)
	Go("janitor", func() {
		tk := NewTicker("ticker", time.Minute)
		for {
			Recv("tick", tk.C)
			_ = *R("janitor.read", now)
		}
	})
	*W("test.write", now) = 1
}

func init() { programs["janitorafterreturn"] = janitorAfterReturn }

func TestNoRaceAfterTheTestReturnedAndTimePassed(t *testing.T) {
	s := runChild(t, "janitorafterreturn", Config{Budget: 10, Seed: 1, Continue: true})
	if kinds(s) != "leak" {
		t.Fatalf("want the janitor's leak alone, got %+v", s.Bugs)
	}
}

// rereadsAround: the test goroutine reads a variable four times at one
// site while another goroutine writes it with write, unordered.
func rereadsAround(write func(n *int64)) func(t *testing.T) {
	return func(t *testing.T) {
		n := new(int64)
		done := make(chan bool, 1)
		Go("go", func() { write(n); Send("done", done, true) })
		for i := 0; i < 4; i++ {
			_ = *R("parent.read", n)
			Gosched("between")
		}
		Recv("wait", done)
	}
}
