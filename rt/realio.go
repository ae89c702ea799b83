//go:build go1.21

package rt

// IO is v, a connection, listener, pipe or file of the standard library
// that the calling goroutine is about to use (the rewriter wraps them): the
// goroutine synchronises with others through it in ways Period does not
// see, so none of its races in this run is reported, as for a goroutine
// found waiting for real (realWait).
func IO[T any](v T) T {
	e := eng
	if !e.active.Load() {
		return v
	}
	g, md := e.enter()
	if md != modeControl {
		return v
	}
	e.realWait(g)
	e.mu.Unlock()
	return v
}
