// Package samename has a test named Test in the package and another in its
// external test package, as many of grpc's packages do; go test runs both.
package samename

import "sync"

// Counter counts under a lock; Racy without.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *Counter) AddRacy() {
	n := c.n
	c.n = n + 1
}

func (c *Counter) N() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
