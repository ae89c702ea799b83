package rt

import (
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
