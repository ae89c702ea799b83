// Package bigwork is a sharded map whose tests do a lot of work: a finite
// test with millions of key points is not a livelock.
package bigwork

import "sync"

const shards = 8

type shard struct {
	mu sync.Mutex
	m  map[int]int
}

// Map is a map split into shards, each with its own lock.
type Map struct{ s [shards]shard }

// New returns an empty map.
func New() *Map {
	m := &Map{}
	for i := range m.s {
		m.s[i].m = map[int]int{}
	}
	return m
}

// Put stores v under k.
func (m *Map) Put(k, v int) {
	s := &m.s[k%shards]
	s.mu.Lock()
	s.m[k] = v
	s.mu.Unlock()
}

// Len counts the entries.
func (m *Map) Len() int {
	n := 0
	for i := range m.s {
		s := &m.s[i]
		s.mu.Lock()
		n += len(s.m)
		s.mu.Unlock()
	}
	return n
}
