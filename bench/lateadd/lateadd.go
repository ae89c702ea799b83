// Package lateadd is a timer pattern: workers register with a stopper from
// goroutines of their own, and the test sleeps "long enough" for them to
// register before it stops everything.
package lateadd

import "sync"

// Stopper waits for its workers when stopped.
type Stopper struct {
	wg sync.WaitGroup
	mu sync.Mutex
	n  int
}

// RunWorker starts f as a worker of s.
func (s *Stopper) RunWorker(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// Stop waits for every worker started so far.
func (s *Stopper) Stop() { s.wg.Wait() }

// Work is one worker's job.
func (s *Stopper) Work() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}
