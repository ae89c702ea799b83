//go:build go1.24

package subtests

import (
	"context"
	"testing"
)

// watch starts a goroutine that runs until ctx is done, then reports on the
// returned channel (buffered or not).
func watch(ctx context.Context, buffered bool) <-chan string {
	n := 0
	if buffered {
		n = 1
	}
	out := make(chan string, n)
	go func() {
		<-ctx.Done()
		out <- "stopped"
	}()
	return out
}

// t.Context() is canceled just before the cleanups run: the cleanup waits for
// the watcher that the cancellation stops.
// period:want none
func TestContextStopsWatcher(t *testing.T) {
	done := watch(t.Context(), false)
	t.Cleanup(func() {
		if got := <-done; got != "stopped" {
			t.Errorf("got %q", got)
		}
	})
}

// Nobody waits for the watcher: once t.Context() is canceled, it blocks
// forever sending its report on an unbuffered channel.
// period:want leak
func TestContextWatcherLeaks(t *testing.T) {
	var tb testing.TB = t
	_ = watch(tb.Context(), false)
}

// period:want none
func TestContextWatcherBuffered(t *testing.T) {
	var tb testing.TB = t
	_ = watch(tb.Context(), true)
}
