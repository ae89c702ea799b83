package ledger

import (
	"sync"
	"testing"
)

func run(t *testing.T, batch func(*Ledger, []int, int)) {
	l := &Ledger{}
	entries := make([]int, 20)
	for i := range entries {
		entries[i] = i + 1
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		batch(l, entries, 12)
	}()
	// monitoring readers
	for i := 0; i < 15; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if e := l.Epoch(); e < 0 || e > 2 {
				t.Errorf("epoch %d", e)
			}
		}()
	}
	// the scheduled rotation
	wg.Add(1)
	go func() {
		defer wg.Done()
		l.Rotate()
	}()
	wg.Wait()
	if e := l.Epoch(); e != 2 {
		t.Errorf("epoch = %d, want 2", e)
	}
}

// Bug: the batch reads the epoch and writes it back in two critical sections;
// the rotator's increment between them is lost.
// period:want fail
func TestLedgerBuggy(t *testing.T) { run(t, (*Ledger).ApplyBatchBuggy) }

// period:want none
func TestLedgerFixed(t *testing.T) { run(t, (*Ledger).ApplyBatch) }
