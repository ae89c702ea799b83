// Package allocsperrun counts allocations with testing.AllocsPerRun around
// channel operations, as pion/interceptor's tests do.
package allocsperrun

import "testing"

func drain(in chan []int) int {
	n := 0
	for v := range in {
		n += len(v)
	}
	return n
}

// A buffered channel made, filled, closed and drained allocates once
// natively (the channel and its buffer), twice with pointer elements. The
// engine's own bookkeeping for a fresh channel is about twenty allocations:
// counted, it failed such tests.
func TestChannelRoundAllocations(t *testing.T) {
	data := []int{1, 2, 3}
	got := testing.AllocsPerRun(100, func() {
		in := make(chan []int, 2)
		in <- data
		in <- data
		close(in)
		if drain(in) != 6 {
			panic("lost a value")
		}
	})
	if got > 2 {
		t.Fatalf("%v allocations per run, want at most 2", got)
	}
}
