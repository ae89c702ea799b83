// Package lazy01 renders SCTBench CS/lazy01_bad.c in Go: a checker assumes it
// runs before both adders have finished.
package lazy01

import "sync"

var (
	mutex *sync.Mutex
	data  int
)

// Reset restores the initial state.
func Reset() {
	mutex = new(sync.Mutex)
	data = 0
}

// Thread1 adds 1.
func Thread1() {
	mutex.Lock()
	data++
	mutex.Unlock()
}

// Thread2 adds 2.
func Thread2() {
	mutex.Lock()
	data += 2
	mutex.Unlock()
}

// Thread3 asserts data < 3.
func Thread3(fail func(string)) {
	mutex.Lock()
	if data >= 3 {
		fail("lazy01: data >= 3")
	}
	mutex.Unlock()
}
