// Package replayafter: a test whose key points depend on a cache that the
// test before it fills (as encoders cache per-type state). Its replay
// must run that test first, as the confirmation did, or it meets other
// key points.
package replayafter

import (
	"sync"
	"testing"
)

var (
	mu    sync.RWMutex
	sizes = map[string]int{}
)

// size looks k up under a read lock and fills the cache under the write
// lock on a miss: a hit and a miss reach different key points.
func size(k string) int {
	mu.RLock()
	n, ok := sizes[k]
	mu.RUnlock()
	if ok {
		return n
	}
	mu.Lock()
	defer mu.Unlock()
	sizes[k] = len(k)
	return len(k)
}

func TestFill(t *testing.T) {
	if size("key") != 3 {
		t.Fatal("size")
	}
}

func TestLostUpdate(t *testing.T) {
	total := 0
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := size("key")
			cur := total
			total = cur + n
		}()
	}
	wg.Wait()
	if total != 6 {
		t.Errorf("total = %d, want 6", total)
	}
}
