package drainedtimer

import (
	"testing"
	"time"
)

func run(t *testing.T, reset func(*Waiter)) {
	w := NewWaiter(100 * time.Microsecond)
	replies := make(chan int, 2)
	go func() { replies <- 1 }()
	w.Wait(replies)
	reset(w)
	go func() { replies <- 2 }()
	if _, ok := w.Wait(replies); !ok {
		t.Log("second reply late")
	}
}

// Bug: the first wait times out, so Reset waits for a tick that was taken.
// period:want deadlock
func TestWaiterBuggy(t *testing.T) { run(t, (*Waiter).Reset) }

// period:want none
func TestWaiterFixed(t *testing.T) { run(t, (*Waiter).ResetFixed) }
