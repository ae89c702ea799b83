// Package deadlockcause: a cache whose refresher publishes an update while
// holding the cache's lock; the subscriber takes the lock before it
// receives. The test goroutine only waits for both.
package deadlockcause

import "sync"

type Cache struct {
	mu      sync.Mutex
	val     int
	updates chan int
}

func New() *Cache { return &Cache{updates: make(chan int)} }

// Refresh sets the value and announces it, under the lock (the bug).
func (c *Cache) Refresh(v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.val = v
	c.updates <- v
}

// Subscribe reads the current value, then waits for one update.
func (c *Cache) Subscribe() int {
	c.mu.Lock()
	v := c.val
	c.mu.Unlock()
	return v + <-c.updates
}
