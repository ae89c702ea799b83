//go:build go1.23

package rt

import "iter"

// Pull is iter.Pull(seq). The Go runtime runs seq on a goroutine of its own
// (a coroutine), but only while the goroutine that called next or stop waits
// for it: one thread of control. So seq's key points are taken as that
// caller's, which keeps them controlled (a plain iter.Pull would run them
// outside control, where a receive from a controlled sender waits for ever).
func Pull[V any](seq iter.Seq[V]) (func() (V, bool), func()) {
	c := &coro{}
	next, stop := iter.Pull(func(yield func(V) bool) {
		c.enter()
		defer c.leave()
		seq(func(v V) bool {
			c.leave()
			defer c.enter()
			return yield(v)
		})
	})
	return func() (V, bool) { c.call(); return next() }, func() { c.call(); stop() }
}

// Pull2 is iter.Pull2(seq), as Pull is iter.Pull.
func Pull2[K, V any](seq iter.Seq2[K, V]) (func() (K, V, bool), func()) {
	c := &coro{}
	next, stop := iter.Pull2(func(yield func(K, V) bool) {
		c.enter()
		defer c.leave()
		seq(func(k K, v V) bool {
			c.leave()
			defer c.enter()
			return yield(k, v)
		})
	})
	return func() (K, V, bool) { c.call(); return next() }, func() { c.call(); stop() }
}

// coro lends the identity of the goroutine that resumes a coroutine to the
// coroutine while it runs.
type coro struct {
	caller   int64   // goid of the goroutine that last called next or stop
	owner    *gstate // its controlled goroutine, if any
	id       int64   // goid of the coroutine while it runs as owner
	borrowed bool
}

// call is called by the goroutine about to resume the coroutine.
func (c *coro) call() {
	e := eng
	id := goid()
	e.mu.Lock()
	c.caller, c.owner = id, e.byGoid.get(id)
	e.mu.Unlock()
}

// enter is called by the coroutine when it starts or resumes.
func (c *coro) enter() {
	e := eng
	e.mu.Lock()
	defer e.mu.Unlock()
	g := c.owner
	if g == nil || g.goid != c.caller || e.byGoid.get(c.caller) != g || g.status == gDone {
		return
	}
	c.id, c.borrowed = goid(), true
	g.goid = c.id
	e.byGoid.put(c.id, g)
}

// leave is called by the coroutine when it yields or returns.
func (c *coro) leave() {
	if !c.borrowed {
		return
	}
	e := eng
	e.mu.Lock()
	defer e.mu.Unlock()
	c.borrowed = false
	if e.byGoid.get(c.id) == c.owner {
		e.byGoid.del(c.id)
	}
	if c.owner.goid == c.id {
		c.owner.goid = c.caller
	}
}
