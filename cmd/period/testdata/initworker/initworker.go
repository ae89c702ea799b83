// Package initworker runs jobs on a goroutine that its init starts: a
// goroutine that exists before any test, so Period does not control it.
package initworker

import "sync"

var jobs = make(chan func())

func init() {
	go func() {
		for j := range jobs {
			j()
		}
	}()
}

// Do runs f on the package's worker and waits for it.
func Do(f func()) {
	done := make(chan struct{})
	jobs <- func() { f(); close(done) }
	<-done
}

// Counter is guarded by mu, or not when Racy is set.
type Counter struct {
	mu   sync.Mutex
	n    int
	Racy bool
}

func (c *Counter) Inc() {
	if c.Racy {
		v := c.n
		Do(func() {})
		c.n = v + 1
		return
	}
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}
