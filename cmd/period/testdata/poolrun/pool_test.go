// Package poolrun takes values from a sync.Pool that goroutines put back.
// Under go test -count=1 the first Get of the process finds the pool
// empty; Period runs the test again and again in one process, and each run
// must find it so too, whichever processor its goroutines ran on.
package poolrun

import (
	"sync"
	"testing"
)

type counter struct{ n int }

var pool = sync.Pool{New: func() any { return new(counter) }}

func TestFirstGetIsNew(t *testing.T) {
	c := pool.Get().(*counter)
	if c.n != 0 {
		t.Fatalf("the first Get returned a value put back before the test began (n = %d)", c.n)
	}
	c.n++
	var wg sync.WaitGroup
	for k := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if k == 0 {
				pool.Put(c)
			} else {
				pool.Put(&counter{n: 2})
			}
		}()
	}
	wg.Wait()
}

// Workers share pooled counters in turns: a value one put back is the
// next one's (the pool keeps the last one put back on top).
func TestWorkersShareBuffers(t *testing.T) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				c := pool.Get().(*counter)
				c.n = 0
				for range 4 {
					c.n++
				}
				mu.Lock()
				total += c.n
				mu.Unlock()
				pool.Put(c)
			}
		}()
	}
	wg.Wait()
	if total != 36 {
		t.Fatalf("total %d, want 36", total)
	}
}
