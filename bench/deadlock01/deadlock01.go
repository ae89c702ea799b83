// Package deadlock01 renders SCTBench CS/deadlock01_bad.c in Go: two threads
// take locks a and b in opposite orders.
package deadlock01

import "sync"

var (
	a, b    *sync.Mutex
	counter int
)

// Reset restores the initial state.
func Reset() {
	a, b = new(sync.Mutex), new(sync.Mutex)
	counter = 1
}

// Thread1 locks a then b.
func Thread1() {
	a.Lock()
	b.Lock()
	counter++
	b.Unlock()
	a.Unlock()
}

// Thread2 locks b then a.
func Thread2() {
	b.Lock()
	a.Lock()
	counter--
	a.Unlock()
	b.Unlock()
}
