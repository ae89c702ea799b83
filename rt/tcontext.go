//go:build go1.24

package rt

import (
	"context"
	"testing"
)

// TContext is t.Context(), also through a testing.TB. Under control it is a
// virtual context that the engine cancels just before the test's cleanup
// functions run (TCleanup), as package testing does: the real one is only
// canceled once the run is over, so a goroutine (or a cleanup) waiting for
// it would be blocked forever.
func TContext(site string, tb testing.TB) context.Context {
	e := eng
	_, md := e.enter()
	if md != modeControl {
		return tb.Context()
	}
	owner := e.testOwner(tb)
	if owner == nil {
		e.mu.Unlock()
		return tb.Context()
	}
	if owner.tctx == nil {
		owner.tctx = e.newCancelCtx(context.Background())
	}
	c := owner.tctx
	e.mu.Unlock()
	return c
}
