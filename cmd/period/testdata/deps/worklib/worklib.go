// Package worklib is a dependency (a module of its own, required through a
// replace directive) whose goroutines carry the bugs: a test of the main
// module finds them only if the dependency is under Period's control.
package worklib

import "sync"

// Counter loses updates: AddConcurrently's goroutines increment without a lock.
type Counter struct{ n int }

func (c *Counter) AddConcurrently(k int) {
	var wg sync.WaitGroup
	for i := 0; i < k; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.n++
		}()
	}
	wg.Wait()
}

func (c *Counter) N() int { return c.n }

// Accounts takes its two locks in both orders.
type Accounts struct{ a, b sync.Mutex }

func (x *Accounts) Transfer() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		x.a.Lock()
		x.b.Lock()
		x.b.Unlock()
		x.a.Unlock()
	}()
	go func() {
		defer wg.Done()
		x.b.Lock()
		x.a.Lock()
		x.a.Unlock()
		x.b.Unlock()
	}()
	wg.Wait()
}

// Health's lock lives in an unexported struct its scopes share: a caller in
// another package locks it through the promoted h.Lock().
type healthRoot struct {
	sync.Mutex
	n int
}

type Health struct {
	*healthRoot
	Level int
}

func NewHealth() *Health { return &Health{healthRoot: &healthRoot{}} }

// Scope shares h's lock.
func (h *Health) Scope() *Health {
	h.Lock()
	defer h.Unlock()
	h.n++
	return &Health{healthRoot: h.healthRoot}
}

func (h *Health) Degrade() {
	h.Lock()
	defer h.Unlock()
	h.Level = 2
}
