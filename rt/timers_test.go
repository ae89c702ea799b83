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

// pooledTimers: a timer and a ticker kept in package variables from one
// schedule to the next (yamux keeps its write timers in a sync.Pool), and
// reset, stopped and waited on in each. The real Stop and Reset would panic
// ("Reset called on uninitialized Timer"): an earlier run made them.
var (
	pooledTimer  *time.Timer
	pooledTicker *time.Ticker
)

func pooledTimers(t *testing.T) {
	if pooledTimer == nil {
		pooledTimer = NewTimer("new", time.Hour)
		TimerStop("stop", pooledTimer)
		pooledTicker = NewTicker("ticker", time.Hour)
		TickerStop("tstop", pooledTicker)
	}
	other := make(chan int, 1)
	Go("other", func() { Gosched("yield"); Send("send", other, 1) })
	Gosched("yield")
	TimerReset("reset", pooledTimer, time.Millisecond)
	Recv("fire", pooledTimer.C)
	Recv("recv", other)
	if TimerStop("stop", pooledTimer) {
		t.Error("Stop of a timer that fired said it was running")
	}
	TimerReset("reset", pooledTimer, time.Hour)
	if !TimerStop("stop", pooledTimer) {
		t.Error("Stop of a running timer said it was not")
	}
	TickerReset("treset", pooledTicker, time.Millisecond)
	Recv("tick", pooledTicker.C)
	Recv("tick", pooledTicker.C)
	TickerStop("tstop", pooledTicker)
}

func init() { programs["pooledtimers"] = pooledTimers }

func TestTimersKeptAcrossRuns(t *testing.T) {
	s := runChild(t, "pooledtimers", Config{Strategy: "random", Budget: 5, Seed: 1, Continue: true})
	if len(s.Bugs) != 0 || s.Schedules != 5 {
		t.Fatalf("want 5 schedules without a verdict: %+v", s)
	}
}

// Outside any run (a package's init, TestMain, an uncontrolled goroutine),
// a timer an earlier run made is stopped and reset as a real one would be.
func TestTimersKeptOutsideRuns(t *testing.T) {
	tm := &time.Timer{C: make(chan time.Time, 1)} // what NewTimer makes in a run
	TimerReset("reset", tm, time.Millisecond)
	<-tm.C
	if TimerStop("stop", tm) {
		t.Error("Stop of a timer that fired said it was running")
	}
	TimerReset("reset", tm, time.Hour)
	if !TimerStop("stop", tm) {
		t.Error("Stop of a running timer said it was not")
	}
	tk := &time.Ticker{C: make(chan time.Time, 1)}
	TickerReset("reset", tk, time.Millisecond)
	<-tk.C
	<-tk.C
	TickerStop("stop", tk)
	select {
	case <-tk.C:
		t.Error("a stopped ticker ticked")
	case <-time.After(20 * time.Millisecond):
	}
}

// A library keeps time.AfterFunc's timer behind an interface of its own
// and stops and resets it through that interface (pion's deadline
// package): the clock's timer must answer as a real one does, not panic as
// an uninitialized time.Timer.
func TestTimerThroughInterface(t *testing.T) {
	type timer interface {
		Stop() bool
		Reset(time.Duration) bool
	}
	type ticker interface {
		Stop()
		Reset(time.Duration)
	}
	var stopped, stoppedAgain, reset bool
	var fired atomic.Int32
	runControlled(&stay{}, func() {
		var tm timer = AfterFunc("af", time.Hour, func() { fired.Add(1) })
		stopped = TimerStopIface("stop", tm)
		stoppedAgain = TimerStopIface("stop", tm)
		reset = TimerResetIface("reset", tm, time.Millisecond)
		var tk ticker = NewTicker("tk", time.Second)
		TickerResetIface("tkreset", tk, 2*time.Second)
		TickerStopIface("tkstop", tk)
		Sleep("sleep", 10*time.Millisecond)
	})
	if !stopped || stoppedAgain || reset {
		t.Errorf("Stop, Stop again, Reset = %v, %v, %v; want true, false, false", stopped, stoppedAgain, reset)
	}
	if n := fired.Load(); n != 1 {
		t.Errorf("the reset timer fired %d times, want 1", n)
	}
}
