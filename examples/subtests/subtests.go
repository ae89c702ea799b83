// Package subtests is a background service started by test helpers that stop
// it with t.Cleanup, and tests made of parallel subtests.
package subtests

import (
	"strings"
	"sync"
)

// Service records the requests it receives, on its own goroutine.
type Service struct {
	reqs chan string
	stop chan struct{}
	done chan struct{}

	mu   sync.Mutex
	seen []string
}

// Start starts the service's goroutine.
func Start() *Service {
	s := &Service{reqs: make(chan string), stop: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	return s
}

func (s *Service) loop() {
	defer close(s.done)
	for {
		select {
		case r := <-s.reqs:
			s.mu.Lock()
			s.seen = append(s.seen, strings.TrimSpace(r))
			s.mu.Unlock()
		case <-s.stop:
			return
		}
	}
}

// Submit hands r to the service; it returns once the service has taken it,
// not once it has recorded it.
func (s *Service) Submit(r string) { s.reqs <- r }

// Seen returns the requests recorded so far.
func (s *Service) Seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// Stop ends the service's goroutine and waits for it.
func (s *Service) Stop() {
	close(s.stop)
	<-s.done
}

// Double is the function the table-driven tests check.
func Double(x int) int { return 2 * x }
