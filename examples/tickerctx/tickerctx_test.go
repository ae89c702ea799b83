package tickerctx

import (
	"context"
	"sync"
	"testing"
	"time"
)

// Correct: the poller stops at the deadline; ticks come no faster than every 10ms,
// so at most 3 fit before 35ms.
// period:want none
func TestPoll(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 35*time.Millisecond)
	defer cancel()
	var mu sync.Mutex
	seen := 0
	n, err := Poll(ctx, 10*time.Millisecond, func() { mu.Lock(); seen++; mu.Unlock() })
	if err != context.DeadlineExceeded {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
	if n > 3 || n != seen {
		t.Fatalf("n = %d, seen = %d, want equal and at most 3", n, seen)
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
