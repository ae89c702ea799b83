package rt

import (
	"testing"
	"time"
)

// The clock waits in real time for a goroutine outside control up to the
// next timer (the test's one-second timeout); the goroutine comes back and
// sleeps a millisecond, with no step between. The wait ends at the nearer
// timer, as a real clock fires it: a client looping on requests with a
// millisecond's pause cost a second of real time per request.
func TestGraceEndsAtANearerTimer(t *testing.T) {
	e := &engine{}
	e.clock.reset()
	e.handedOut = 1 // a value went to a goroutine outside control
	e.clock.add(&vtimer{when: int64(time.Second)})
	if !e.outsideGrace(false) {
		t.Fatal("the clock did not wait for the goroutine outside control")
	}
	if e.graceFor < 900*time.Millisecond {
		t.Fatalf("the wait is %v, want about the second to the timer", e.graceFor)
	}
	e.clock.add(&vtimer{when: e.vnow() + int64(time.Millisecond)})
	e.outsideGrace(false)
	if e.graceFor > 10*time.Millisecond {
		t.Errorf("after a timer a millisecond away was set, the wait is %v, want about a millisecond", e.graceFor)
	}
}
