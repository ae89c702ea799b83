// Package collect has objects that tests watch being collected: a
// finalizer, a weak pointer and a cleanup, each on an object whose mutex
// or fields goroutines used before.
package collect

import "sync"

// Counter is a counter behind a lock.
type Counter struct {
	mu sync.Mutex
	wg sync.WaitGroup
	n  int
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}
