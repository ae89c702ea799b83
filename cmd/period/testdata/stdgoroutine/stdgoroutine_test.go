// Package stdgoroutine runs code of its own in goroutines the standard
// library starts: http.Server runs each RegisterOnShutdown function in a
// go statement of net/http, which Period does not control.
package stdgoroutine

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// The hook runs within microseconds of Shutdown on any machine: the
// test's 5-second timeout never fires first (connectrpc's memhttp test).
func TestOnShutdownHookRuns(t *testing.T) {
	var srv http.Server
	done := make(chan struct{})
	srv.RegisterOnShutdown(func() { close(done) })
	if err := srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Error("OnShutdown hook didn't fire")
	}
}
