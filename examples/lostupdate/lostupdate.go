// Package lostupdate counts hits from several goroutines.
package lostupdate

import "sync"

// Counter is incremented without synchronisation: n++ is a read and a
// write, and two goroutines can both read the same old value.
type Counter struct{ n int }

// Inc adds one (racy).
func (c *Counter) Inc() { c.n++ }

// Value returns the count.
func (c *Counter) Value() int { return c.n }

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
