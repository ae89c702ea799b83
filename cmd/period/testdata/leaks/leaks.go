// Package leaks leaves goroutines behind in two ways: a cache whose janitor
// runs until Close (by design), and a worker stuck forever on a channel.
package leaks

import (
	"sync"
	"time"
)

// Cache expires nothing; its janitor just ticks until Close.
type Cache struct {
	mu   sync.Mutex
	m    map[string]int
	stop chan struct{}
}

// NewCache starts the janitor.
func NewCache() *Cache {
	c := &Cache{m: map[string]int{}, stop: make(chan struct{})}
	go c.janitor()
	return c
}

func (c *Cache) janitor() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			c.mu.Lock()
			c.mu.Unlock()
		case <-c.stop:
			return
		}
	}
}

// Close stops the janitor.
func (c *Cache) Close() { close(c.stop) }

// Worker waits for jobs on in.
type Worker struct{ in chan int }

// Start starts a worker that nobody feeds or stops: it blocks forever.
func Start() *Worker {
	w := &Worker{in: make(chan int)}
	go w.run()
	return w
}

func (w *Worker) run() {
	for range w.in {
	}
}
