// Package store is a dependency inside the same module: it gets instrumented.
package store

import "sync"

type Store struct {
	mu sync.Mutex
	n  int
}

func (s *Store) Add(d int) {
	s.mu.Lock()
	s.n += d
	s.mu.Unlock()
}

func (s *Store) Get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}
