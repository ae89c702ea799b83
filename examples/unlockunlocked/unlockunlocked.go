// Package unlockunlocked is a counter whose locking can be switched on at run time.
package unlockunlocked

import (
	"sync"
	"sync/atomic"
)

// Counter locks only when shared is set. Inc reads the flag twice: if it
// is switched on between the two reads, Inc unlocks a mutex it never locked
// (fatal error: sync: unlock of unlocked mutex).
type Counter struct {
	shared atomic.Bool
	mu     sync.Mutex
	n      int
}

// Share switches locking on.
func (c *Counter) Share() { c.shared.Store(true) }

// Inc adds one.
func (c *Counter) Inc() {
	if c.shared.Load() {
		c.mu.Lock()
	}
	c.n++
	if c.shared.Load() {
		c.mu.Unlock()
	}
}

// IncFixed reads the flag once and unlocks only what it locked.
func (c *Counter) IncFixed() {
	locked := c.shared.Load()
	if locked {
		c.mu.Lock()
	}
	c.n++
	if locked {
		c.mu.Unlock()
	}
}

// Value returns the count; call it only after all Inc calls have returned.
func (c *Counter) Value() int { return c.n }
