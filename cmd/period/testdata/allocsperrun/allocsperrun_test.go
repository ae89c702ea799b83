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

type header struct {
	kind uint8
	size uint16
	id   uint32
}

func encode(h *header, b []byte) int {
	b[0] = h.kind
	b[1] = byte(h.size)
	b[2] = byte(h.id)
	return 3
}

// roundTrip's header, array and scratch slice stay on its stack natively:
// no allocation. Their addresses are taken by the hooks before each field
// and element access; that made all three escape (two allocations a run,
// pion/ice's "does not allocate" tests).
func roundTrip() int {
	h := header{kind: 1, size: 2, id: 3}
	var buf [8]byte
	n := encode(&h, buf[:])
	scratch := make([]byte, 16)
	copy(scratch, buf[:n])
	return int(scratch[0]) + n
}

func TestStackBuffersDoNotAllocate(t *testing.T) {
	if got := testing.AllocsPerRun(100, func() { roundTrip() }); got != 0 {
		t.Fatalf("%v allocations per run, want none", got)
	}
}

type loop struct{ done chan struct{} }

// err polls done as pion/ice's task loop does before every write.
func (l *loop) err() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

// A select allocates nothing natively; the cases the engine keeps for it
// made the list of cases escape (one allocation a select).
func TestSelectDoesNotAllocate(t *testing.T) {
	l := &loop{done: make(chan struct{})}
	if got := testing.AllocsPerRun(100, func() { l.err() }); got != 0 {
		t.Fatalf("%v allocations per run, want none", got)
	}
}

// With a single measured run, a cost the engine pays once (the first call
// with the caller's hooks as outside control) would be counted whole.
func TestSingleRunAllocations(t *testing.T) {
	data := []int{1, 2, 3}
	l := &loop{done: make(chan struct{})}
	got := testing.AllocsPerRun(1, func() {
		in := make(chan []int, 2)
		in <- data
		close(in)
		if drain(in) != 3 || l.err() || roundTrip() != 4 {
			panic("lost a value")
		}
	})
	if got > 2 {
		t.Fatalf("%v allocations per run, want at most 2", got)
	}
}

// f is called runs+1 times, as go test calls it (gopacket's reassembly
// test counts the bytes its calls pass).
func TestCallsAsGoTest(t *testing.T) {
	calls := 0
	testing.AllocsPerRun(10, func() { calls++ })
	if calls != 11 {
		t.Fatalf("f called %d times, want 11", calls)
	}
}
