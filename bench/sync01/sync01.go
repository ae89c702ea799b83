// Package sync01 renders SCTBench CS/sync01_bad.c in Go (a smoke test): a
// producer waits for num to drop to 0, but the consumer never consumes, so
// the producer waits forever.
package sync01

import "sync"

var (
	num         int
	m           *sync.Mutex
	empty, full *sync.Cond
)

// Reset restores the initial state.
func Reset() {
	num = 1
	m = new(sync.Mutex)
	empty, full = sync.NewCond(m), sync.NewCond(m)
}

// Thread1 produces once num is 0.
func Thread1() {
	m.Lock()
	for num > 0 {
		empty.Wait()
	}
	num++
	m.Unlock()
	full.Signal()
}

// Thread2 waits for something to be produced but does not consume it.
func Thread2() {
	m.Lock()
	for num == 0 {
		full.Wait()
	}
	m.Unlock()
	empty.Signal()
}
