package initloader

import (
	"sync"
	"testing"
)

// The table the init goroutine built is there in every schedule: the
// package variables are snapshotted once that goroutine is done, not while
// it still builds the table (each run would then start with no table but a
// closed ready channel).
func TestTableLoadedInInit(t *testing.T) {
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v := Get("x"); v != 1 {
				t.Errorf("Get(x) = %d", v)
			}
		}()
	}
	wg.Wait()
}
