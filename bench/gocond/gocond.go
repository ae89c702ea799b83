// Package gocond is a Go-specific pattern: a start gate built on sync.Cond
// that wakes waiters with Signal where it needs Broadcast.
package gocond

import "sync"

// Gate holds goroutines until Open.
type Gate struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

// NewGate returns a closed gate.
func NewGate() *Gate {
	g := &Gate{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// Wait blocks until the gate is open.
func (g *Gate) Wait() {
	g.mu.Lock()
	for !g.open {
		g.cond.Wait()
	}
	g.mu.Unlock()
}

// Open opens the gate but wakes only one waiter: with two already waiting,
// the other sleeps forever.
func (g *Gate) Open() {
	g.mu.Lock()
	g.open = true
	g.cond.Signal()
	g.mu.Unlock()
}

// OpenFixed wakes every waiter.
func (g *Gate) OpenFixed() {
	g.mu.Lock()
	g.open = true
	g.cond.Broadcast()
	g.mu.Unlock()
}
