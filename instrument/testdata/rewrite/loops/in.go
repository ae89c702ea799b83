package loops

import (
	"runtime"
	"sync"
)

// Polls in loops that end by themselves start each iteration with
// rt.Iteration; a loop that may not end (for {}, for cond {}, a range over a
// channel) and a loop that does not poll are left as they are.
func BoundedPolls(done chan struct{}, items []int, m map[int]int, mu *sync.Mutex) int {
	n := 0
	for i := 0; i < len(items); i++ {
		select {
		case <-done:
			return n
		default:
		}
		n += items[i]
	}
	for range m {
		runtime.Gosched()
	}
	for i := range 10 {
		if mu.TryLock() {
			n += i
			mu.Unlock()
		}
	}
	for _, v := range items {
		n += v
		go func() {
			runtime.Gosched() // in a function literal: not the loop's poll
		}()
	}
	for n > 0 {
		runtime.Gosched()
		n--
	}
	for range done {
		runtime.Gosched()
	}
	for {
		select {
		case <-done:
			return n
		default:
		}
	}
}
