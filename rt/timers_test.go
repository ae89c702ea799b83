//go:build go1.21

package rt

import (
	"sync/atomic"
	"testing"
	"time"
)

// sleepVsWork: the test goroutine sleeps 20 µs while a worker takes 500
// steps, then checks that the work is done: true in every schedule where
// the sleep ends only after the worker blocks, false where the sleep ends
// first (it may: 20 µs is within -early-timers).
func sleepVsWork(t *testing.T) {
	var n int64
	done := make(chan struct{})
	Go("go", func() {
		for i := 0; i < 500; i++ {
			atomic.AddInt64(Atomic("add", &n), 1)
		}
		Close("close", done)
	})
	Sleep("sleep", 20*time.Microsecond)
	if atomic.LoadInt64(AtomicLoad("load", &n)) != 500 {
		t.Error("the sleep ended before the work")
	}
	Recv("recv", done)
}

func init() { programs["sleepvswork"] = sleepVsWork }

// TestTimersEarlyOrWhenBlocked: with early timers the sleep ends before
// the work in some schedules; with -timers=blocked never.
func TestTimersEarlyOrWhenBlocked(t *testing.T) {
	early := runChild(t, "sleepvswork", Config{Budget: 50, Seed: 1, NoRace: true, Continue: true, EarlyTimers: DefaultEarlyTimers, MaxSteps: 100000})
	if early.Buggy["fail"] == 0 {
		t.Errorf("early timers: no schedule where the sleep ends first: %+v", early)
	}
	blocked := runChild(t, "sleepvswork", Config{Budget: 50, Seed: 1, NoRace: true, Continue: true, EarlyTimers: DefaultEarlyTimers, TimersWhenBlocked: true, MaxSteps: 100000})
	// The sleeper is never enabled beside the worker: the only schedule.
	if len(blocked.Bugs) != 0 || blocked.Schedules != 1 || !blocked.Exhausted {
		t.Errorf("timers when blocked: want one schedule, exhausted, no bug: %+v", blocked)
	}
}
