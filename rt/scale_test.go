//go:build go1.21

package rt

import (
	"sync"
	"testing"
	"time"
)

// TestKeyPointWorkIndependentOfGoroutines: while n-2 goroutines wait on a
// channel, a decision evaluates the readiness of the same few goroutines
// whatever n is (a full pass evaluated all n at every key point), plus the
// safety pass over every goroutine once per max(rescanEvery, n) decisions:
// at most one more per key point. Counted, not timed: BenchmarkKeyPoint has
// the times.
func TestKeyPointWorkIndependentOfGoroutines(t *testing.T) {
	perStep := map[int]float64{}
	for _, n := range []int{10, 1000} {
		var checks, steps int
		runControlledWith(Config{NoRace: true}, &alternate{}, func() {
			stop := make(chan struct{})
			var parked, busy sync.WaitGroup
			var mu sync.Mutex
			WGAdd("add", &parked, n-2)
			for i := 0; i < n-2; i++ {
				Go("idle", func() {
					WGDone("parked", &parked)
					Recv("wait", stop)
				})
			}
			WGWait("all parked", &parked)
			e := eng
			e.mu.Lock()
			c0, s0 := e.rs.checks, e.steps
			e.mu.Unlock()
			WGAdd("add", &busy, 2)
			for k := 0; k < 2; k++ {
				Go("busy", func() {
					for i := 0; i < 500; i++ {
						Lock("lock", &mu)
						Unlock("unlock", &mu)
					}
					WGDone("busy done", &busy)
				})
			}
			WGWait("busy", &busy)
			e.mu.Lock()
			checks, steps = e.rs.checks-c0, e.steps-s0
			e.mu.Unlock()
			Close("stop", stop)
		})
		if steps < 2000 {
			t.Fatalf("n=%d: %d steps in the busy part, want at least 2000", n, steps)
		}
		perStep[n] = float64(checks) / float64(steps)
	}
	if perStep[1000] > perStep[10]+1.1 || perStep[1000] > 4 {
		t.Errorf("readiness evaluations per key point: %.2f with 10 goroutines, %.2f with 1000", perStep[10], perStep[1000])
	}
	t.Logf("readiness evaluations per key point: %.2f with 10 goroutines, %.2f with 1000", perStep[10], perStep[1000])
}

// TestWaitKeysBounded: a loop that waits on a new channel at every iteration
// (time.After, a fresh unbuffered channel) does not keep an entry per
// iteration in the engine's wait lists.
func TestWaitKeysBounded(t *testing.T) {
	const iterations = 20000
	var keys int
	runControlledWith(Config{NoRace: true}, &alternate{}, func() {
		for i := 0; i < iterations; i++ {
			Recv("tick", After("after", time.Millisecond))
			c := make(chan int)
			Go("send", func() { Send("send", c, i) })
			Recv("recv", c)
		}
		e := eng
		e.mu.Lock()
		keys = len(e.rs.waitOn) + len(e.rs.parkedOn)
		e.mu.Unlock()
	})
	if keys > 4*minTrim {
		t.Errorf("%d wait keys after %d iterations, want at most %d", keys, iterations, 4*minTrim)
	}
}

// Timers armed and stopped at every turn, none of them firing, do not pile
// up in the clock's queue (issue "big tests": virtual time keeps no timer
// that nothing can fire).
func TestStoppedTimersDoNotAccumulate(t *testing.T) {
	const iterations = 20000
	var queued int
	runControlledWith(Config{NoRace: true}, &alternate{}, func() {
		for i := 0; i < iterations; i++ {
			TimerStop("stop", NewTimer("timer", time.Hour))
			tk := NewTicker("ticker", time.Hour)
			TickerStop("stop", tk)
		}
		e := eng
		e.mu.Lock()
		queued = e.clock.q.len()
		e.mu.Unlock()
	})
	if queued > 2*minCompact {
		t.Errorf("%d timers queued after %d stopped ones, want at most %d", queued, 2*iterations, 2*minCompact)
	}
}
