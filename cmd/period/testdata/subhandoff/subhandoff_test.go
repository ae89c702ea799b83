// Package subhandoff starts a subtest right after a channel hand-off (suture's
// TestDoNotPropagate): the test goroutine, let run beside the others while
// the hand-off blocked it for real, must wait its turn before the subtest
// takes over.
package subhandoff

import (
	"sync"
	"testing"
	"time"
)

type service struct {
	mu      sync.Mutex
	running bool
	take    chan int
	started chan bool
}

func (s *service) serve() {
	s.mu.Lock()
	s.running = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running = false
		s.mu.Unlock()
	}()
	s.started <- true
	for {
		select {
		case v := <-s.take:
			if v == 1 {
				return
			}
		}
	}
}

func TestSubtestAfterHandoff(t *testing.T) {
	s := &service{take: make(chan int), started: make(chan bool)}
	go s.serve()
	<-s.started
	s.take <- 1
	t.Log("took")
	t.Run("stopped", func(t *testing.T) {
		for {
			s.mu.Lock()
			r := s.running
			s.mu.Unlock()
			if !r {
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
}
