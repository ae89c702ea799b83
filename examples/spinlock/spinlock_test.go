package spinlock

import (
	"sync"
	"testing"
)

// Correct: the CAS makes acquisition atomic, and the release/acquire pair orders the
// increments, so no update is lost.
// period:want none
func TestSpinLock(t *testing.T) {
	var l Lock
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			l.Acquire()
			n++
			l.Release()
		}()
	}
	wg.Wait()
	if n != 2 {
		t.Fatalf("n = %d, want 2", n)
	}
}
