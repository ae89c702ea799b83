// Package condlocker has queues whose sync.Cond locks the queue itself.
package condlocker

import "sync"

// Queue embeds its mutex and is its condition's Locker, as
// alicebob/miniredis' Miniredis is.
type Queue struct {
	sync.Mutex
	items []int
	cond  *sync.Cond
}

// NewQueue makes an empty queue.
func NewQueue() *Queue {
	q := &Queue{}
	q.cond = sync.NewCond(q)
	return q
}

// Put appends v and wakes a taker.
func (q *Queue) Put(v int) {
	q.Lock()
	q.items = append(q.items, v)
	q.Unlock()
	q.cond.Signal()
}

// Take waits for an item.
func (q *Queue) Take() int {
	q.Lock()
	defer q.Unlock()
	for len(q.items) == 0 {
		q.cond.Wait()
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v
}

// Counted declares its own Lock and Unlock (over a mutex field): its code
// must run when a Cond locks it.
type Counted struct {
	mu    sync.Mutex
	locks int
	ready bool
	cond  *sync.Cond
}

// NewCounted makes one.
func NewCounted() *Counted {
	c := &Counted{}
	c.cond = sync.NewCond(c)
	return c
}

// Lock counts and locks.
func (c *Counted) Lock() { c.mu.Lock(); c.locks++ }

// Unlock unlocks.
func (c *Counted) Unlock() { c.mu.Unlock() }

// expectation is locked through an interface, as go-sqlmock's are.
type expectation interface {
	Lock()
	Unlock()
	done() bool
}

// common embeds the mutex: an expectation's Lock is promoted from two
// levels down.
type common struct {
	sync.Mutex
	triggered bool
}

func (c *common) done() bool { return c.triggered }

// Begin is an expectation.
type Begin struct {
	common
	name string
}

// Shared embeds a pointer to its mutex.
type Shared struct {
	*sync.Mutex
	n int
}

// Take marks the first expectation not done as done, locking each through
// the interface and unlocking the chosen one through its concrete type.
func Take(list []expectation) *Begin {
	for _, x := range list {
		x.Lock()
		if x.done() {
			x.Unlock()
			continue
		}
		if b, ok := x.(*Begin); ok {
			b.triggered = true
			b.Unlock()
			return b
		}
		x.Unlock()
	}
	return nil
}
