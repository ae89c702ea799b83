//go:build go1.21

package rt

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A goroutine outside control that waits for e.mu in this package (as
// outsideLock does when it locks a mutex shared with controlled goroutines)
// goes on once e.mu is released: settleOutside must count it as running,
// or all controlled goroutines waiting for it look deadlocked. One blocked
// on a channel does not count.
func TestOthersRunnableSeesWaitersForTheEngine(t *testing.T) {
	var mu sync.Mutex
	ch := make(chan struct{})
	lockerID, receiverID := make(chan int64), make(chan int64)
	mu.Lock()
	go func() { lockerID <- goid(); mu.Lock(); mu.Unlock() }()
	go func() { receiverID <- goid(); <-ch }()
	locker, receiver := <-lockerID, <-receiverID
	only := func(id int64) func(int64) bool { return func(o int64) bool { return o != id } }
	deadline := time.Now().Add(10 * time.Second)
	for othersRunnable(only(receiver)) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // until it has parked on ch
	}
	if othersRunnable(only(receiver)) {
		t.Errorf("a goroutine blocked on a channel counts as running")
	}
	time.Sleep(10 * time.Millisecond) // the locker parks on mu
	if !othersRunnable(only(locker)) {
		t.Errorf("a goroutine waiting for a lock in package rt does not count as running")
	}
	mu.Unlock()
	close(ch)
}

// bubbleDurablyBlocked: in a synctest bubble the clock need not wait for
// goroutines outside control that are blocked on channels (only the bubble
// can wake them) or have exited; it waits for one that sleeps for real, or
// that waits for the engine's lock on its way into a hook.
func TestBubbleDurablyBlocked(t *testing.T) {
	started := func(f func()) int64 {
		ids := make(chan int64)
		go func() {
			ids <- goid()
			f()
		}()
		return <-ids
	}
	waitStatus := func(id int64, prefix string) {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if strings.HasPrefix(goroutineStatuses()[id], prefix) {
				return
			}
		}
		t.Fatalf("goroutine %d never reached status %q", id, prefix)
	}
	var e engine
	e.outside = 1
	if e.bubbleDurablyBlocked() {
		t.Fatal("no goroutine recorded: nothing says the bubble is quiet")
	}
	release := make(chan struct{})
	defer close(release)
	receiver := started(func() { <-release })
	waitStatus(receiver, "chan receive")
	exited := started(func() {})
	for goroutineStatuses()[exited] != "" {
		time.Sleep(time.Millisecond)
	}
	e.outsideGs.add(receiver)
	e.outsideGs.add(exited)
	if !e.bubbleDurablyBlocked() {
		t.Error("a goroutine blocked on a channel and one that exited: want durably blocked")
	}

	var stop atomic.Bool
	defer stop.Store(true)
	sleeper := started(func() {
		for !stop.Load() {
			time.Sleep(time.Millisecond)
		}
	})
	e.outsideGs.add(sleeper)
	if e.bubbleDurablyBlocked() {
		t.Error("a goroutine sleeping for real counts as durably blocked")
	}
	stop.Store(true)
	for goroutineStatuses()[sleeper] != "" {
		time.Sleep(time.Millisecond)
	}

	e.mu.Lock()
	entering := started(func() {
		e.mu.Lock()
		e.mu.Unlock()
	})
	waitStatus(entering, "sync.Mutex.Lock")
	e.outsideGs.add(entering)
	quiet := e.bubbleDurablyBlocked()
	e.mu.Unlock()
	if quiet {
		t.Error("a goroutine waiting for the engine's lock counts as durably blocked")
	}
}

func init() {
	// A token passes from one controlled goroutine to another through a
	// goroutine outside control (a server's): the write before the first
	// send happens before the write after the last receive.
	programs["tokenthroughoutside"] = func(t *testing.T) {
		toServer, fromServer := make(chan int, 1), make(chan int, 1)
		go func() { // started by a plain go statement: outside control
			Send("forward", fromServer, Recv("serve", toServer))
		}()
		x := new(int)
		done := make(chan int)
		Go("first", func() {
			*W("write first", x) = 1
			Send("give", toServer, 1)
		})
		Go("second", func() {
			Recv("take", fromServer)
			*W("write second", x) = 2
			Close("done", done)
		})
		Recv("wait", done)
	}
}

// TestTokenThroughOutsideIsOrdered: channel operations of goroutines
// outside control carry happens-before edges between controlled ones.
func TestTokenThroughOutsideIsOrdered(t *testing.T) {
	s := runChild(t, "tokenthroughoutside", Config{Budget: 10, Seed: 1})
	if len(s.Bugs) != 0 || s.Schedules != 10 {
		t.Errorf("want 10 schedules without a race: %+v", s)
	}
}

func init() {
	// A goroutine outside control (a net/http transport's, dialing through
	// the program's dialer) counts a connection's writer in a WaitGroup the
	// model counts none of; the test's Wait must wait for that writer, which
	// then sends on a channel the test closes after its Wait.
	programs["outsidewgcount"] = func(t *testing.T) {
		var wg sync.WaitGroup
		out := make(chan int, 1)
		dialed := make(chan struct{})
		go func() { // outside control
			WGAdd("dial add", &wg, 1)
			close(dialed)
			go func() { // the connection's writer, outside control too
				time.Sleep(20 * time.Millisecond)
				Send("write", out, 1)
				WGDone("write done", &wg)
			}()
		}()
		<-dialed
		WGWait("close wait", &wg)
		Close("close", out)
		if n := len(out); n != 1 {
			t.Errorf("Wait returned before the writer was done: %d values", n)
		}
	}
}

// TestWaitCountsOutsideAdds: a controlled Wait waits for counts that
// goroutines outside control added to the WaitGroup itself.
func TestWaitCountsOutsideAdds(t *testing.T) {
	s := runChild(t, "outsidewgcount", Config{Budget: 3, Seed: 1})
	if len(s.Bugs) != 0 || s.Schedules != 3 {
		t.Errorf("want 3 schedules without a bug: %+v", s)
	}
}

func init() {
	// A goroutine outside control (a proxy's dialer) counts a connection
	// in a WaitGroup the model counts none of; a controlled goroutine (the
	// test closing idle connections) closes it and counts it down; a
	// goroutine outside control waits for the count (a server's shutdown).
	programs["outsidewgcontrolleddone"] = func(t *testing.T) {
		var wg sync.WaitGroup
		added := make(chan struct{})
		go func() { // outside control
			WGAdd("dial add", &wg, 1)
			close(added)
		}()
		<-added
		waited := make(chan struct{})
		go func() { // outside control
			WGWait("shutdown wait", &wg)
			close(waited)
		}()
		closed := make(chan struct{})
		Go("go closer", func() {
			WGDone("close done", &wg)
			Close("closed", closed)
		})
		Recv("wait closed", closed)
		WGWait("test wait", &wg)
		<-waited
	}
}

// TestControlledDoneOfOutsideAdd: a controlled Done of a count that a
// goroutine outside control added to the WaitGroup itself counts it down
// there (before, the model's count went below zero: a false "negative
// WaitGroup counter" panic in stripe/smokescreen's TestMitm).
func TestControlledDoneOfOutsideAdd(t *testing.T) {
	s := runChild(t, "outsidewgcontrolleddone", Config{Budget: 5, Seed: 1})
	if len(s.Bugs) != 0 || s.Schedules < 1 || s.Abandoned != 0 {
		t.Errorf("want schedules without a bug: %+v", s)
	}
}

// TestRealWGCount: realWGCount reads sync.WaitGroup's counter where this
// Go version keeps it.
func TestRealWGCount(t *testing.T) {
	var wg sync.WaitGroup
	for _, n := range []int{3, -1, -2} {
		wg.Add(n)
		want := 0
		if n == 3 {
			want = 3
		} else if n == -1 {
			want = 2
		}
		if got := realWGCount(&wg); int(got) != want {
			t.Fatalf("after Add(%d): realWGCount = %d, want %d", n, got, want)
		}
	}
}

func init() {
	// The goroutine outside control counts in the WaitGroup and never
	// counts down: the test's Wait would wait for ever under go test too,
	// but the wait is in code Period does not control.
	programs["outsidewgnever"] = func(t *testing.T) {
		var wg sync.WaitGroup
		added := make(chan struct{})
		go func() { // outside control
			WGAdd("add", &wg, 1)
			close(added)
		}()
		<-added
		WGWait("wait", &wg)
	}
}

// TestWaitForOutsideCountEnds: a Wait for counts outside control that never
// fall ends the schedule as abandoned (a note) within the hang limit, not
// as a verdict, and never hangs the test process.
func TestWaitForOutsideCountEnds(t *testing.T) {
	s := runChild(t, "outsidewgnever", Config{Budget: 2, Seed: 1})
	if len(s.Bugs) != 0 || s.Abandoned != 1 || !strings.Contains(s.AbandonedWhy, "WaitGroup.Wait") {
		t.Errorf("want the schedule abandoned for the WaitGroup, no verdict: %+v", s)
	}
}

// TestOutsideSelectBesideRealTimer: a goroutine outside control about to
// block in a select whose other case is a real timer that has not fired (a
// handler's own time.After) is watched on its channels: the engine looks at
// them and sees it queued (benthos's HTTP server input; before, a real timer
// case made the select look as if it could not block, and the controlled
// goroutine waiting for the handler was left blocked until the clock
// jumped to its timeout).
func TestOutsideSelectBesideRealTimer(t *testing.T) {
	ch := make(chan int)
	var watched int
	runControlled(&stay{}, func() {
		done := make(chan struct{})
		go func() { // outside control
			defer close(done)
			eng.watchOutsideSelect([]Case{SendCase(ch), RecvCase(time.After(time.Hour))})
			bo := &eng.blockedOutside
			bo.mu.Lock()
			watched = bo.chans[chanOf(ch)]
			bo.mu.Unlock()
			w := eng.outsideSelect(goid())
			w.stop()
		}()
		<-done
	})
	if watched != 1 {
		t.Fatalf("the select's channel is watched %d times, want 1", watched)
	}
}
