// Package genericchan sends, receives, ranges over and closes channels whose
// type is a type parameter with a channel core type, while other goroutines
// use the same channels with plain channel operations.
package genericchan

import "sync"

// Fill sends es on c.
func Fill[C ~chan<- E, E any](c C, es ...E) {
	for _, e := range es {
		c <- e
	}
}

// Drain receives from c until it is closed.
func Drain[C ~<-chan E | ~chan E, E any](c C) []E {
	var out []E
	for e := range c {
		out = append(out, e)
	}
	return out
}

// Pass forwards one value from in to out and closes out.
func Pass[C ~chan E, E any](in, out C) {
	v, ok := <-in
	if ok {
		out <- v
	}
	close(out)
}

// Counter counts with a lost update when Racy is set: the read and the write
// of n are separate critical sections.
type Counter[T ~int | ~int64] struct {
	mu sync.Mutex
	n  T
}

func (c *Counter[T]) Add(d T, racy bool) {
	c.mu.Lock()
	v := c.n
	if racy {
		c.mu.Unlock()
		c.mu.Lock()
	}
	c.n = v + d
	c.mu.Unlock()
}

// AddAll adds every d in its own goroutine.
func (c *Counter[T]) AddAll(racy bool, ds ...T) T {
	var wg sync.WaitGroup
	for _, d := range ds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Add(d, racy)
		}()
	}
	wg.Wait()
	return c.n
}
