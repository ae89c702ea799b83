// Package doubleclose stops a service from more than one goroutine.
package doubleclose

import (
	"sync"
	"sync/atomic"
)

// Service is stopped by closing quit.
type Service struct {
	stopped atomic.Bool
	quit    chan struct{}
	once    sync.Once
}

// New returns a running service.
func New() *Service { return &Service{quit: make(chan struct{})} }

// Stop checks and then sets the flag in two steps: two callers can both see
// false and both close quit (panic: close of closed channel).
func (s *Service) Stop() {
	if s.stopped.Load() {
		return
	}
	s.stopped.Store(true)
	close(s.quit)
}

// StopFixed closes quit exactly once.
func (s *Service) StopFixed() {
	s.once.Do(func() { close(s.quit) })
}

// Done is closed when the service stops.
func (s *Service) Done() <-chan struct{} { return s.quit }
