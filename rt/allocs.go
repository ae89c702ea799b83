//go:build go1.21

package rt

import "testing"

// AllocsPerRun is testing.AllocsPerRun(runs, f). Under control, f runs once
// as a controlled call (its interleavings are explored like the rest of
// the test), then is measured with the calling goroutine's hooks acting as
// outside control: the count is the program's allocations, not the
// engine's (a fresh channel costs the model about twenty allocations, and
// pion/interceptor's tests assert at most four per run). Nothing else runs
// meanwhile: the caller holds the turn, as it does between key points.
// f is called runs+2 times, once more than under go test: when the
// controlled call was testing's own warm-up, the first measured call paid
// the plain mode's first-time costs (pion's "at most 4" saw 5 and 6).
func AllocsPerRun(runs int, f func()) float64 {
	e := eng
	g, md := e.enter()
	if md != modeControl {
		return testing.AllocsPerRun(runs, f)
	}
	e.mu.Unlock()
	f()
	e.mu.Lock()
	g.plain = true
	e.plainGoid.Store(g.goid)
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		g.plain = false
		e.plainGoid.Store(0)
		e.mu.Unlock()
	}()
	return testing.AllocsPerRun(runs, f)
}
