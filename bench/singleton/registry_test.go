package singleton

import (
	"sync"
	"testing"
)

func run(t *testing.T, get func() *Registry) {
	resetForTest()
	var wg sync.WaitGroup
	// HTTP-ish handlers bump request counters
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			get().Inc("requests")
		}()
	}
	// a background job bumps its own counter from a nested goroutine
	wg.Add(1)
	go func() {
		defer wg.Done()
		wg.Add(1)
		go func() {
			defer wg.Done()
			get().Inc("jobs")
		}()
	}()
	wg.Wait()
	r := get()
	if r.Value("requests") != 5 || r.Value("jobs") != 1 {
		t.Errorf("requests=%d jobs=%d", r.Value("requests"), r.Value("jobs"))
	}
}

// Bug: double-checked locking publishes the registry before its map is made;
// a handler that skips the lock increments a nil map.
// period:want panic
func TestRegistryBuggy(t *testing.T) { run(t, DefaultBuggy) }

// period:want none
func TestRegistryFixed(t *testing.T) { run(t, Default) }
