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

// Bug: unsynchronised n++, a data race in every schedule (reported first); with g1 reads 0,
// g2 reads 0, g1 writes 1, g2 writes 1 the assertion fails too.
// period:want race
func TestCounter(t *testing.T) { run(t, &Counter{}) }

// Bug: atomic load, then atomic store. Interleaving: g1 loads 0, g2 loads 0, g1 stores 1,
// g2 stores 1: count 1.
// period:want fail
func TestCounterLoadStore(t *testing.T) { run(t, &LoadStoreCounter{}) }

// period:want none
func TestCounterFixed(t *testing.T) { run(t, &SafeCounter{}) }
