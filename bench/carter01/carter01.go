// Package carter01 renders SCTBench CS/carter01_bad.c in Go: a readers-style
// lock l taken by the first of a class while holding m; two classes can
// deadlock on m and l.
package carter01

import "sync"

var (
	m, l *sync.Mutex
	a, b int
)

// Reset restores the initial state.
func Reset() {
	m, l = new(sync.Mutex), new(sync.Mutex)
	a, b = 0, 0
}

// ClassA enters and leaves a class-A operation.
func ClassA() {
	m.Lock()
	a++
	if a == 1 {
		l.Lock()
	}
	m.Unlock()
	// class A operation
	m.Lock()
	a--
	if a == 0 {
		l.Unlock()
	}
	m.Unlock()
}

// ClassB enters and leaves a class-B operation.
func ClassB() {
	m.Lock()
	b++
	if b == 1 {
		l.Lock()
	}
	m.Unlock()
	// class B operation
	m.Lock()
	b--
	if b == 0 {
		l.Unlock()
	}
	m.Unlock()
}
