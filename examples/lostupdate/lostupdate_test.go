package lostupdate

import (
	"sync"
	"testing"
)

type counter interface {
	Inc()
	Value() int
}

func run(t *testing.T, c counter) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); c.Inc() }()
	go func() { defer wg.Done(); c.Inc() }()
	wg.Wait()
	if got := c.Value(); got != 2 {
		t.Fatalf("count = %d, want 2", got)
	}
}

// Bug: unsynchronised n++. Interleaving: g1 reads 0, g2 reads 0, g1 writes 1, g2 writes 1.
// period:want fail
func TestCounter(t *testing.T) { run(t, &Counter{}) }

// period:want none
func TestCounterFixed(t *testing.T) { run(t, &SafeCounter{}) }
