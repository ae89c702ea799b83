package registry

import (
	"sync"
	"sync/atomic"
	"time"
)

// A daemon started once per process by a package-level sync.Once or
// sync.OnceFunc (fasthttp's date updater, fiber's timestamp ticker) runs
// until the process exits by design: not a leak. One started once per
// object is one per object: a leak when the object is never stopped.

var (
	dateOnce sync.Once
	date     atomic.Int64
)

// Date returns a clock that a daemon advances every second.
func Date() int64 {
	dateOnce.Do(func() {
		go func() {
			for {
				time.Sleep(time.Second)
				date.Add(1)
			}
		}()
	})
	return date.Load()
}

// startTicker starts, once per process, a goroutine ranging over a ticker.
var startTicker = sync.OnceFunc(func() {
	go func() {
		for range time.NewTicker(time.Second).C {
			date.Add(1)
		}
	}()
})

// Client ticks in a goroutine it starts on first use and never stops.
type Client struct {
	once  sync.Once
	ticks atomic.Int64
}

// Start starts c's ticker goroutine, once.
func (c *Client) Start() {
	c.once.Do(func() {
		go func() {
			for range time.NewTicker(time.Second).C {
				c.ticks.Add(1)
			}
		}()
	})
}
