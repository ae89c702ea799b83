package clock

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// Inside a synctest bubble time is exact and synctest.Wait waits until every
// other goroutine is blocked, as under go test.
func TestSynctestBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var woke atomic.Int32
		for i := 0; i < 3; i++ {
			go func() {
				time.Sleep(2 * time.Second)
				woke.Add(1)
			}()
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := woke.Load(); n != 0 {
			t.Errorf("after 1s, %d goroutines woke from a 2s sleep", n)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := woke.Load(); n != 3 {
			t.Errorf("after 2s, %d of 3 goroutines woke", n)
		}
		if el := time.Since(start); el != 2*time.Second {
			t.Errorf("elapsed %v in the bubble, want exactly 2s", el)
		}
	})
}
