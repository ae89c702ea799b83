// Package cleanuppass has goroutines that go on after the test returned:
// one with a finite pass over what the test built, one that never stops.
package cleanuppass

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type table struct {
	mu    sync.RWMutex
	items map[int]int
}

func (t *table) add(k int) {
	t.mu.Lock()
	t.items[k] = k
	t.mu.Unlock()
}

func (t *table) get(k int) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.items[k]
}

// sweep visits every item under the read lock, one lock at a time, as a
// cache's expiration pass does (muesli/cache2go's expirationCheck).
func (t *table) sweep(keys []int) int {
	n := 0
	for _, k := range keys {
		t.mu.RLock()
		n += t.items[k]
		t.mu.RUnlock()
	}
	return n
}

// filled adds n items, each read back: four key points an item.
func filled(t *testing.T, n int) (*table, []int) {
	tab := &table{items: map[int]int{}}
	keys := make([]int, n)
	for i := range keys {
		keys[i] = i
		tab.add(i)
		if tab.get(i) != i {
			t.Fatalf("item %d lost", i)
		}
	}
	return tab, keys
}

// The sweep started at the end takes more key points than Period allowed
// after a test (200,000) but fewer than the test took: natively it ends
// within milliseconds of the test. Before, it was reported as a leak
// ("a loop or a spin nobody stops").
func TestSweepAfterReturn(t *testing.T) {
	tab, keys := filled(t, 110_000)
	go tab.sweep(keys)
}

// A worker spinning on a flag nobody sets after the test is still a leak.
func TestSpinAfterReturn(t *testing.T) {
	var stop atomic.Bool
	go func() {
		for !stop.Load() {
		}
	}()
}

// Passes that timers start after the test (a cache's next expiration
// check, muesli/cache2go) each get the allowance: together they took more
// steps than the test, one at a time fewer. The second is due over a
// second after the test, with no goroutine left: it does not run.
func TestTimedSweepsAfterReturn(t *testing.T) {
	tab, keys := filled(t, 60_000)
	go tab.sweep(keys)
	time.AfterFunc(time.Second, func() { tab.sweep(keys) })
	time.AfterFunc(2*time.Second, func() { tab.sweep(keys) })
}

// A pass a timer starts long after the test, when no goroutine is left, is
// not waited for: go test would not wait, and it leaves no goroutine
// behind (muesli/cache2go's TestCount: its next expiration check, ten
// seconds on, took 880,000 steps and was reported as a leak).
func TestExpiryPassLongAfterReturn(t *testing.T) {
	tab, keys := filled(t, 20_000)
	time.AfterFunc(10*time.Second, func() {
		for range 20 {
			tab.sweep(keys)
		}
	})
}

// A goroutine that a timer due soon after the test starts, and that blocks
// for ever, is still a leak (goleak, retrying for a second, sees it too).
func TestTimerStartsLeakSoonAfterReturn(t *testing.T) {
	time.AfterFunc(10*time.Millisecond, func() {
		go func() {
			ch := make(chan int)
			<-ch
		}()
	})
}
