// Package sendclosed is a tiny event bus that can be closed while publishers run.
package sendclosed

import "sync"

// Bus delivers events on C until it is closed.
type Bus struct {
	mu     sync.Mutex
	closed bool
	C      chan int
}

// New returns an open bus with room for n events.
func New(n int) *Bus { return &Bus{C: make(chan int, n)} }

// Publish checks the closed flag under the lock but sends after releasing
// it: Close can run in between, and the send panics on the closed channel.
func (b *Bus) Publish(v int) {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if !closed {
		b.C <- v
	}
}

// PublishFixed sends while holding the lock (C is buffered, so the send
// does not block while holding it).
func (b *Bus) PublishFixed(v int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.C <- v
	}
}

// Close closes the bus.
func (b *Bus) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	close(b.C)
}
