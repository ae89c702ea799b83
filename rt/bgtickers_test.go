//go:build go1.21

package rt

import (
	"testing"
	"time"
)

// A real AfterFunc armed outside control paces the clock until its function
// has run or it is stopped, and leaves no entry behind either way, also
// when it fires before AfterFunc returns.
func TestOutsideAfterFuncPacesUntilItRan(t *testing.T) {
	before := bgPacers.Load()
	ran := make(chan struct{})
	tm := bgAfterFunc(time.Millisecond, func() { close(ran) })
	if bgPacers.Load() != before+1 {
		t.Errorf("pacers %d after arming, want %d", bgPacers.Load(), before+1)
	}
	<-ran
	if bgPacers.Load() != before {
		t.Errorf("pacers %d after it ran, want %d", bgPacers.Load(), before)
	}
	if _, ok := bgAfters.Load(tm); ok {
		t.Error("an AfterFunc that ran is still recorded")
	}
	stopped := bgAfterFunc(500*time.Millisecond, func() {})
	bgAfterStopped(stopped)
	stopped.Stop()
	if bgPacers.Load() != before {
		t.Errorf("pacers %d after Stop, want %d", bgPacers.Load(), before)
	}
	for i := 0; i < 100; i++ {
		done := make(chan struct{})
		now := bgAfterFunc(0, func() { close(done) })
		<-done // its entry is gone before its function runs, or before bgAfterFunc returns
		if _, ok := bgAfters.Load(now); ok {
			t.Fatal("an AfterFunc(0) that ran is still recorded")
		}
	}
	long := bgAfterFunc(2*time.Second, func() {})
	defer long.Stop()
	if bgPacers.Load() != before {
		t.Errorf("a 2 s AfterFunc paces the clock (pacers %d, want %d)", bgPacers.Load(), before)
	}
}
