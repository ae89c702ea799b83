package rt

import (
	"testing"
	"time"
)

// A computation that checks its own deadline now and then (go-diff gives
// up after DiffTimeout, reading the clock every 16 rounds of work) must see
// time pass with its work: the clock moves by the memory accesses between
// readings (workDrift), also on the test goroutine's path without
// bookkeeping. Reading drift alone needed 10,000 readings for 1 ms; the
// work between them counts too, so far fewer accesses get there, and the
// same run reads the same instants (virtual time stays deterministic).
func TestWorkMovesTheClock(t *testing.T) {
	const every = 10_000
	run := func() (accesses int, solo bool, end time.Duration) {
		runControlled(&stay{}, func() {
			x := escaped(new(int))
			start := Now()
			deadline := start.Add(time.Millisecond)
			for !Now().After(deadline) {
				for i := 0; i < every; i++ {
					*W("work", x) = i
				}
				accesses += every
				if accesses > 20_000_000 {
					t.Error("the deadline loop did not end after 20 M accesses")
					break
				}
			}
			solo = eng.soloGoid.Load() != 0
			end = Since(start)
		})
		return
	}
	n, solo, end := run()
	if !solo {
		t.Error("the test goroutine did not take the solo path")
	}
	// 10,000 accesses are 2.5 µs of work (accessesPerNs) and a reading
	// at most 1 µs: 1 ms takes at most 400 rounds, at least 286.
	if n > 400*every || n < 286*every {
		t.Errorf("the deadline loop made %d accesses, want 2.86 to 4 M", n)
	}
	if n2, _, end2 := run(); n2 != n || end2 != end {
		t.Errorf("second run: %d accesses, %v; first: %d, %v", n2, end2, n, end)
	}
}
