package gocond

import (
	"sync"
	"testing"
)

func run(fixed bool) {
	g := NewGate()
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() { defer wg.Done(); g.Wait() }()
	}
	if fixed {
		g.OpenFixed()
	} else {
		g.Open()
	}
	wg.Wait()
}

// Bug: Signal instead of Broadcast. Interleaving: main is preempted after starting the
// waiters, both block in cond.Wait, Open wakes one; the other and main block forever.
// period:want deadlock
func TestGate(t *testing.T) { run(false) }

// period:want none
func TestGateFixed(t *testing.T) { run(true) }
