//go:build go1.21

package rt

import (
	"runtime"
	"testing"
)

// AllocsPerRun is testing.AllocsPerRun(runs, f). Under control, f's first
// call, testing's warm-up, is a controlled call (its interleavings are
// explored like the rest of the test); the runs measured calls follow with
// the calling goroutine's hooks acting as outside control: the count is the
// program's allocations, not the engine's (a fresh channel costs the model
// about twenty allocations, and pion/interceptor's tests assert at most four
// per run). f is called runs+1 times, as under go test (gopacket counts the
// bytes its calls pass). Nothing else runs meanwhile: the caller holds the
// turn, as it does between key points.
func AllocsPerRun(runs int, f func()) float64 {
	e := eng
	g, md := e.enter()
	if md != modeControl {
		return testing.AllocsPerRun(runs, f)
	}
	e.mu.Unlock()
	f()
	e.mu.Lock()
	g.plain = true
	e.plainGoid.Store(g.goid)
	e.rs.reserveAsync()
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		g.plain = false
		e.plainGoid.Store(0)
		e.mu.Unlock()
	}()
	// testing.AllocsPerRun's measure, without its warm-up (the controlled
	// call above was it).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	mallocs := 0 - stats.Mallocs
	for i := 0; i < runs; i++ {
		f()
	}
	runtime.ReadMemStats(&stats)
	mallocs += stats.Mallocs
	return float64(mallocs / uint64(runs))
}
