// Package rwrecursive is a read-mostly cache guarded by a sync.RWMutex.
package rwrecursive

import "sync"

// Cache maps keys to values.
type Cache struct {
	mu sync.RWMutex
	m  map[string]int
}

// New returns an empty cache.
func New() *Cache { return &Cache{m: make(map[string]int)} }

// Len returns the number of entries.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

// Stats read-locks and then calls Len, which read-locks again. A writer that
// calls Lock between the two RLocks blocks new readers, so the second RLock
// waits for the writer, which waits for the first RLock: deadlock.
func (c *Cache) Stats() (n int, sum int) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, v := range c.m {
		sum += v
	}
	return c.Len(), sum
}

// StatsFixed takes the read lock once.
func (c *Cache) StatsFixed() (n int, sum int) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, v := range c.m {
		sum += v
	}
	return len(c.m), sum
}

// Set stores a value.
func (c *Cache) Set(k string, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}
