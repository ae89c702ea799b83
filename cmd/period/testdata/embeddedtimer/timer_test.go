package embeddedtimer

import (
	"sync/atomic"
	"testing"
	"time"
)

// Stop through the interface stops the callback: it never runs.
func TestStopThroughInterface(t *testing.T) {
	var ran atomic.Bool
	tm := AfterFunc(50*time.Millisecond, func() { ran.Store(true) })
	if !tm.Stop() {
		t.Fatal("Stop of a pending timer returned false")
	}
	time.Sleep(100 * time.Millisecond)
	if ran.Load() {
		t.Fatal("the callback ran after Stop")
	}
}

// Reset through the interface moves the timer: it fires at the new time.
func TestResetThroughInterface(t *testing.T) {
	tm, c := NewTimer(time.Hour)
	start := time.Now()
	tm.Reset(10 * time.Millisecond)
	<-c
	if d := time.Since(start); d >= time.Hour {
		t.Fatalf("fired after %v, want about 10ms", d)
	}
}
