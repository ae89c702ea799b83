package firstresponse

import (
	"testing"
	"time"
)

// slowBackend answers after exactly the caller's deadline, so either side may win.
func slowBackend() string {
	time.Sleep(time.Millisecond)
	return "pong"
}

func run(t *testing.T, fetch func(func() string, time.Duration) (string, error)) {
	v, err := fetch(slowBackend, time.Millisecond)
	if err == nil && v != "pong" {
		t.Fatalf("got %q", v)
	}
	if err != nil && err != ErrTimeout {
		t.Fatalf("unexpected error %v", err)
	}
}

// Bug: unbuffered result channel. Interleaving: both timers fire at 1ms, the caller's
// timeout case runs first and returns; the worker then blocks forever on ch <- v.
// period:want leak
func TestFetch(t *testing.T) { run(t, Fetch) }

// period:want none
func TestFetchFixed(t *testing.T) { run(t, FetchFixed) }
