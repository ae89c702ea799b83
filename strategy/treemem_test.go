//go:build go1.21

package strategy_test

import (
	"runtime"
	"testing"

	"github.com/period-dev/period/strategy"
)

// The iterative searches (ipb, idb, pedal) keep a work item for each costly
// alternative of a run: with n goroutines enabled at each of k decisions,
// k·(n-1) items. They share the run's path, so memory grows as k·n, not as
// k²·n (each item copied its whole prefix: 12 GB in the first schedule of a
// test where 100 goroutines lock a mutex 100 times). 2,000 decisions among
// 50 goroutines allocated 1.2 GB that way; now a few MB.
func TestIterativeItemsShareTheirPath(t *testing.T) {
	const goroutines, steps = 50, 2000
	enabled := make([]strategy.Event, goroutines)
	for i := range enabled {
		enabled[i] = strategy.Event{G: strategy.GID(i), Op: strategy.OpLock, Obj: 1, Site: "lock"}
	}
	for _, name := range []string{"ipb", "idb"} {
		s := mustNew(t, name, strategy.Options{Budget: 10})
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for run := 0; run < 3 && s.Begin(); run++ {
			for i := 0; i < steps; i++ {
				s.Next(enabled)
			}
			s.End(&strategy.Run{})
		}
		runtime.ReadMemStats(&after)
		if mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20); mb > 64 {
			t.Errorf("%s: three runs of %d decisions among %d goroutines allocated %.0f MB, want under 64", name, steps, goroutines, mb)
		}
		cp := s.(strategy.Checkpointer).Checkpoint()
		if len(cp) > 16<<20 {
			t.Errorf("%s: checkpoint of %d bytes, want under 16 MB", name, len(cp))
		}
	}
}
