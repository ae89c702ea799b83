// Package lostupdate counts hits from several goroutines.
package lostupdate

import (
	"sync"
	"sync/atomic"
)

// Counter is incremented without synchronisation: n++ is a read and a
// write, and two goroutines can both read the same old value. It is also a
// data race.
type Counter struct{ n int }

// Inc adds one (racy).
func (c *Counter) Inc() { c.n++ }

// Value returns the count.
func (c *Counter) Value() int { return c.n }

// LoadStoreCounter makes each access atomic but not the increment: the
// same lost update, with no data race.
type LoadStoreCounter struct{ n int64 }

// Inc loads and then stores; another Inc can run in between.
func (c *LoadStoreCounter) Inc() {
	v := atomic.LoadInt64(&c.n)
	atomic.StoreInt64(&c.n, v+1)
}

// Value returns the count.
func (c *LoadStoreCounter) Value() int { return int(atomic.LoadInt64(&c.n)) }

// SafeCounter guards its count with a mutex.
type SafeCounter struct {
	mu sync.Mutex
	n  int
}

// Inc adds one under the lock.
func (c *SafeCounter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Value returns the count under the lock.
func (c *SafeCounter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
