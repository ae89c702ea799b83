// Package counter has in-package tests only and imports another package of
// its (go 1.13) module.
package counter

import "example.com/mod113/internal/store"

type Counter struct{ s store.Store }

func (c *Counter) Inc()       { c.s.Add(1) }
func (c *Counter) Value() int { return c.s.Get() }
