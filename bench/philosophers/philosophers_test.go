package philosophers

import (
	"sync"
	"testing"
)

func dine(t *testing.T, n int) {
	table := NewTable(n)
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func(i int) { defer wg.Done(); table.Dine(i) }(i)
	}
	wg.Wait()
	if !table.AllAte() {
		t.Fatal("a philosopher went hungry")
	}
}

// Bug: each philosopher takes its first fork and is preempted before its second
// (n-1 preemptions): a cycle of n waiting goroutines.
// period:want deadlock
func TestPhilosophers3(t *testing.T) { dine(t, 3) }

// Bug: as above with 5 philosophers (4 preemptions).
// period:want deadlock
func TestPhilosophers5(t *testing.T) { dine(t, 5) }

// Bug: as above with 7 philosophers (6 preemptions).
// period:want deadlock
func TestPhilosophers7(t *testing.T) { dine(t, 7) }
