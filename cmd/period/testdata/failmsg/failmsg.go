// Package failmsg has a counter that loses updates, checked by a test whose
// failure message is all on its continuation lines, as testify prints them.
package failmsg

import "sync/atomic"

// Counter counts with a load and a store: two increments at once can lose one.
type Counter struct{ n atomic.Int32 }

// Inc adds one, not atomically.
func (c *Counter) Inc() {
	v := c.n.Load()
	c.n.Store(v + 1)
}

// Value is the count.
func (c *Counter) Value() int32 { return c.n.Load() }
