// Package sync02 renders SCTBench CS/sync02_bad.c in Go (a smoke test): a
// one-slot producer/consumer starts with num = 2, so the consumer finishes
// after consuming the initial items and the producer waits forever.
package sync02

import "sync"

const n = 2

var (
	num         int
	m           *sync.Mutex
	empty, full *sync.Cond
)

// Reset restores the initial state.
func Reset() {
	num = 2
	m = new(sync.Mutex)
	empty, full = sync.NewCond(m), sync.NewCond(m)
}

// Producer produces n items, each once the slot is empty.
func Producer() {
	for i := 0; i < n; i++ {
		m.Lock()
		for num > 0 {
			empty.Wait()
		}
		num++
		m.Unlock()
		full.Signal()
	}
}

// Consumer consumes n items.
func Consumer() {
	for j := 0; j < n; j++ {
		m.Lock()
		for num == 0 {
			full.Wait()
		}
		num--
		m.Unlock()
		empty.Signal()
	}
}
