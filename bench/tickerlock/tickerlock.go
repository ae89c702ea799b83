// Package tickerlock is a timer pattern: a refresh loop takes a lock on
// every tick of a fast ticker, while a writer holds that lock and waits for
// the loop to take its update.
package tickerlock

import (
	"sync"
	"time"
)

// Cache is refreshed on every tick and updated through its loop.
type Cache struct {
	mu      sync.Mutex
	val     int
	ticks   int
	updates chan int
}

// NewCache returns a cache whose loop is not yet running.
func NewCache() *Cache { return &Cache{updates: make(chan int)} }

// Loop refreshes on ticks and applies updates until stop is closed.
func (c *Cache) Loop(stop <-chan struct{}, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			c.mu.Lock()
			c.ticks++
			c.mu.Unlock()
		case v := <-c.updates:
			c.mu.Lock()
			c.val = v
			c.mu.Unlock()
		case <-stop:
			return
		}
	}
}

// Set hands v to the loop while holding the lock: if the loop took a tick
// first, it waits for the lock and the writer waits for the loop.
func (c *Cache) Set(v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.updates <- v
}

// SetFixed hands v over without holding the lock.
func (c *Cache) SetFixed(v int) { c.updates <- v }
