// Stop and Reset of a timer that fired and was not received, as the
// module's go line makes them: Go 1.23's synchronous timer channels take
// the value back and report the timer pending; earlier ones leave it in
// the channel and report false. "if !t.Stop() { <-t.C }" works with both.
package sync

import (
	"testing"
	"time"
)

const pendingAfterFire = true

func TestStopIdiom(t *testing.T) {
	tm := time.NewTimer(0)
	time.Sleep(10 * time.Millisecond)
	stopped := tm.Stop()
	if stopped != pendingAfterFire {
		t.Errorf("Stop after the timer fired: %v, want %v", stopped, pendingAfterFire)
	}
	if !stopped {
		<-tm.C
	}
	select {
	case <-tm.C:
		t.Error("a value after Stop")
	default:
	}
}

func TestResetAfterFire(t *testing.T) {
	tm := time.NewTimer(0)
	time.Sleep(10 * time.Millisecond)
	if got := tm.Reset(time.Hour); got != pendingAfterFire {
		t.Errorf("Reset after the timer fired: %v, want %v", got, pendingAfterFire)
	}
	select {
	case <-tm.C:
		if pendingAfterFire {
			t.Error("a stale value after Reset")
		}
	default:
		if !pendingAfterFire {
			t.Error("the value before Reset is gone")
		}
	}
	tm.Stop()
}
