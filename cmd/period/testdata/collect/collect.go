// Package collect has objects that tests watch being collected: a
// finalizer, a weak pointer and a cleanup, each on an object whose mutex
// or fields goroutines used before.
package collect

import (
	"sync"
	"sync/atomic"
)

// Counter is a counter behind a lock, with an atomic count of its calls.
type Counter struct {
	mu    sync.Mutex
	wg    sync.WaitGroup
	n     int
	calls atomic.Int64
}

// Inc adds one.
func (c *Counter) Inc() {
	c.calls.Add(1)
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}
