// Package drainedtimer is a timer pattern: one timer is reused across
// waits, and the code that resets it drains a tick that the previous wait
// may already have taken.
package drainedtimer

import "time"

// Waiter waits for replies, each with a timeout, reusing one timer.
type Waiter struct {
	t *time.Timer
	d time.Duration
}

// NewWaiter returns a waiter whose first wait times out after d.
func NewWaiter(d time.Duration) *Waiter { return &Waiter{t: time.NewTimer(d), d: d} }

// Wait returns the next reply, or false when the timeout comes first.
func (w *Waiter) Wait(replies <-chan int) (int, bool) {
	select {
	case v := <-replies:
		return v, true
	case <-w.t.C:
		return 0, false
	}
}

// Reset arms the timer for the next wait. When the timer already fired it
// drains the channel, but if Wait took that tick the channel is empty and
// the receive blocks forever.
func (w *Waiter) Reset() {
	if !w.t.Stop() {
		<-w.t.C
	}
	w.t.Reset(w.d)
}

// ResetFixed drains only a tick that is there.
func (w *Waiter) ResetFixed() {
	if !w.t.Stop() {
		select {
		case <-w.t.C:
		default:
		}
	}
	w.t.Reset(w.d)
}
