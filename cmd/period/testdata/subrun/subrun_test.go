package subrun

import (
	"sync"
	"testing"
)

func count(t *testing.T, add func(*Counter)) {
	var c Counter
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			add(&c)
		}()
	}
	wg.Wait()
	if c.N() != 2 {
		t.Fatalf("n = %d", c.N())
	}
}

// TestCounter: its "racy adds" subtest has a lost update, "locked adds"
// none; "locked adds/nested" checks a nested level.
func TestCounter(t *testing.T) {
	t.Run("racy adds", func(t *testing.T) { count(t, (*Counter).AddRacy) })
	t.Run("locked adds", func(t *testing.T) {
		count(t, (*Counter).Add)
		t.Run("nested", func(t *testing.T) { count(t, (*Counter).Add) })
		t.Run("nested racy", func(t *testing.T) { count(t, (*Counter).AddRacy) })
	})
}

// TestOther has a lost update too.
func TestOther(t *testing.T) { count(t, (*Counter).AddRacy) }
