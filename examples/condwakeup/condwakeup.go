// Package condwakeup implements a one-shot gate with sync.Cond.
package condwakeup

import "sync"

// Gate lets waiters block until it is opened. Wait has no predicate: a
// Signal sent before the waiter reached c.Wait is lost, and the waiter
// sleeps forever.
type Gate struct {
	mu sync.Mutex
	c  *sync.Cond
}

// NewGate returns a closed gate.
func NewGate() *Gate {
	g := &Gate{}
	g.c = sync.NewCond(&g.mu)
	return g
}

// Wait blocks until the next Open.
func (g *Gate) Wait() {
	g.mu.Lock()
	g.c.Wait()
	g.mu.Unlock()
}

// Open wakes one waiter.
func (g *Gate) Open() {
	g.mu.Lock()
	g.c.Signal()
	g.mu.Unlock()
}

// FixedGate remembers that it was opened and waits in a predicate loop.
type FixedGate struct {
	mu   sync.Mutex
	c    *sync.Cond
	open bool
}

// NewFixedGate returns a closed gate.
func NewFixedGate() *FixedGate {
	g := &FixedGate{}
	g.c = sync.NewCond(&g.mu)
	return g
}

// Wait blocks until the gate is open.
func (g *FixedGate) Wait() {
	g.mu.Lock()
	for !g.open {
		g.c.Wait()
	}
	g.mu.Unlock()
}

// Open opens the gate for good.
func (g *FixedGate) Open() {
	g.mu.Lock()
	g.open = true
	g.c.Broadcast()
	g.mu.Unlock()
}
