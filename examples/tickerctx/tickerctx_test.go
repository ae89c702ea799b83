package tickerctx

import (
	"context"
	"sync"
	"testing"
	"time"
)

// Correct: the poller stops at the deadline with DeadlineExceeded, and every check it
// made was counted before it returned (the tick count itself depends on real time).
// period:want none
func TestPoll(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3500*time.Microsecond)
	defer cancel()
	var mu sync.Mutex
	seen := 0
	n, err := Poll(ctx, time.Millisecond, func() { mu.Lock(); seen++; mu.Unlock() })
	if err != context.DeadlineExceeded {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if n != seen {
		t.Fatalf("n = %d, seen = %d", n, seen)
	}
}

// Correct: a worker stops when the caller cancels; the caller waits for it to exit.
// period:want none
func TestCancelWorker(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	exited := make(chan error)
	go func() {
		_, err := Poll(ctx, time.Hour, func() {})
		exited <- err
	}()
	cancel()
	if err := <-exited; err != context.Canceled {
		t.Fatalf("err = %v, want canceled", err)
	}
}

// The test returns without canceling: the poller goroutine keeps ticking
// forever after it (a leak, not a hang of the test).
// period:want leak
func TestPollerNeverCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	_ = cancel // forgotten
	go Poll(ctx, time.Millisecond, func() {})
}

// period:want none
func TestPollerCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Poll(ctx, time.Millisecond, func() {})
	}()
	time.Sleep(5 * time.Millisecond)
	cancel()
	<-done
}
