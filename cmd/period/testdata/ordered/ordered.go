// Package ordered has tests written for go test's order and clock: one
// expects the test before it to have run exactly once, one compares the
// present with an instant read at init. Both pass under go test -count=1.
package ordered

import (
	"sync"
	"time"
)

// Window counts events until its deadline.
type Window struct {
	mu       sync.Mutex
	deadline time.Time
	n        int
}

func NewWindow(d time.Duration) *Window { return &Window{deadline: time.Now().Add(d)} }

// Add counts an event and reports whether the window was still open.
func (w *Window) Add() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if time.Now().After(w.deadline) {
		return false
	}
	w.n++
	return true
}

// Sink is a client whose Close closes its queue (rollbar-go's default
// client).
type Sink struct{ queue chan int }

func NewSink() *Sink { return &Sink{queue: make(chan int, 1)} }

func (s *Sink) Close() { close(s.queue) }

// Default is the package's sink, made at init.
var Default = NewSink()
