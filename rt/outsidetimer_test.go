package rt

import (
	"sync/atomic"
	"testing"
	"time"
)

// A goroutine outside control (net/http's, running x/net's HTTP/2 read
// loop) arms a real time.AfterFunc whose function wakes the controlled
// goroutine waiting for it (the connection's health check, which fails
// the request after ReadIdleTimeout and PingTimeout): the run waits for
// that timer, as a real clock would, and is no deadlock.
func TestOutsideRealTimerIsWaitedFor(t *testing.T) {
	ch := make(chan int)
	got := -1
	runControlled(&stay{}, func() {
		go func() { // outside control
			AfterFunc("health", 200*time.Millisecond, func() { ch <- 7 })
		}()
		got = Recv("wait", ch)
	})
	for _, b := range eng.bugs {
		t.Errorf("%s: %s", b.kind, b.message)
	}
	if got != 7 {
		t.Errorf("received %d, want the timer function's 7", got)
	}
}

// A real timer that code outside control re-arms for ever (a keep-alive)
// does not hold a deadlock back for ever: after outsideTimerHorizon
// without a step, the blocked run is one.
func TestOutsideTimerReArmedStillDeadlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("waits outsideTimerHorizon")
	}
	var stop atomic.Bool
	defer stop.Store(true)
	ch := make(chan int)
	runControlled(&stay{}, func() {
		go func() { // outside control
			for !stop.Load() {
				AfterFunc("keepalive", 50*time.Millisecond, func() {})
				time.Sleep(20 * time.Millisecond)
			}
		}()
		Recv("wait", ch) // nobody sends
	})
	if len(eng.bugs) != 1 || eng.bugs[0].kind != "deadlock" {
		t.Fatalf("bugs %+v, want the deadlock", eng.bugs)
	}
}
