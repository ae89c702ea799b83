// Package retrybackoff connects to a server that may not be ready yet,
// retrying with exponential backoff measured in hours.
package retrybackoff

import (
	"errors"
	"sync"
	"time"
)

// ErrNotReady is returned by Dial before the server is up.
var ErrNotReady = errors.New("server not ready")

// Server becomes ready some time after Start.
type Server struct {
	mu       sync.Mutex
	up       bool
	Announce chan struct{}
}

// NewServer returns a server that is not started.
func NewServer() *Server { return &Server{Announce: make(chan struct{})} }

// Start announces the server and then marks it up; a client woken by the
// announcement may dial before up is set.
func (s *Server) Start() {
	go func() {
		s.Announce <- struct{}{}
		s.mu.Lock()
		s.up = true
		s.mu.Unlock()
	}()
}

// Dial fails until the server is up.
func (s *Server) Dial() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.up {
		return ErrNotReady
	}
	return nil
}

const maxRetries = 3

// Connect dials and retries after 1h, 2h, 4h. The retry result is dropped,
// so a first failure is reported even when a retry succeeded. The bad path
// runs only after an hour of sleep.
func Connect(s *Server) error {
	err := s.Dial()
	for i := 0; i < maxRetries && err != nil; i++ {
		time.Sleep(time.Hour << uint(i))
		if s.Dial() == nil {
			break
		}
	}
	return err
}

// ConnectFixed keeps the result of the last attempt.
func ConnectFixed(s *Server) error {
	err := s.Dial()
	for i := 0; i < maxRetries && err != nil; i++ {
		time.Sleep(time.Hour << uint(i))
		err = s.Dial()
	}
	return err
}
