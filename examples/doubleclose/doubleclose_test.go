package doubleclose

import (
	"sync"
	"testing"
)

func run(stop func()) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); stop() }()
	go func() { defer wg.Done(); stop() }()
	wg.Wait()
}

// Bug: flag checked and set non-atomically. Interleaving: both goroutines Load false
// before either Stores true; both close quit.
// period:want panic
func TestStop(t *testing.T) {
	s := New()
	run(s.Stop)
	<-s.Done()
}

// period:want none
func TestStopFixed(t *testing.T) {
	s := New()
	run(s.StopFixed)
	<-s.Done()
}
