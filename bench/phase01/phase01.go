// Package phase01 renders SCTBench CS/phase01_bad.c in Go (a smoke test): each
// of two goroutines locks x a second time and never unlocks it, so the
// second goroutine to arrive blocks forever.
package phase01

import "sync"

var x, y *sync.Mutex

// Reset restores the initial state.
func Reset() { x, y = new(sync.Mutex), new(sync.Mutex) }

// Thread1 is the body both goroutines run.
func Thread1() {
	x.Lock()
	x.Unlock()
	x.Lock() // never unlocked
	y.Lock()
	y.Unlock()
	y.Lock()
	y.Unlock()
}
