// Package subrun has a test whose subtests go test -run 'TestX/sub'
// selects one by one.
package subrun

import "sync"

// Counter counts.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Add adds one under the lock.
func (c *Counter) Add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// AddRacy adds one in two steps with the lock released between them: a
// lost update.
func (c *Counter) AddRacy() {
	c.mu.Lock()
	n := c.n
	c.mu.Unlock()
	c.mu.Lock()
	c.n = n + 1
	c.mu.Unlock()
}

// N is the count.
func (c *Counter) N() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
