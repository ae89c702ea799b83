//go:build go1.21

package rt

import "time"

// Signals a process sends itself. The runtime delivers them on the channels
// of signal.Notify from a goroutine of its own, outside control, within
// microseconds of real time; a test that sends itself a signal and sleeps a
// little expects the handler to have run (hashicorp/go-metrics'
// TestInmemSignal). Virtual time would jump over the sleep at once, before
// the delivery: for a second of real time after such a signal, the clock
// waits before it jumps as it does for goroutines in real I/O
// (outsideGrace), and looks for receivers the delivery made ready.

// selfSignaled reports whether the process sent itself a signal during
// the last outsideGraceMax of real time. e.mu is held.
func (e *engine) selfSignaled() bool {
	return !e.signalAt.IsZero() && time.Since(e.signalAt) < outsideGraceMax
}
