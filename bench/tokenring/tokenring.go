// Package tokenring renders SCTBench CS/token_ring_bad.c in Go: three atomic
// steps pass a value around a ring; a checker asserts all three agree once
// every step ran, which needs the steps in ring order. __ESBMC_atomic blocks
// become one global mutex.
package tokenring

import "sync"

var (
	atomicMu            *sync.Mutex
	x1, x2, x3          int
	flag1, flag2, flag3 bool
)

// Reset restores the initial state.
func Reset() {
	atomicMu = new(sync.Mutex)
	x1, x2, x3 = 1, 2, 1
	flag1, flag2, flag3 = false, false, false
}

// T1 sets x1 from x3.
func T1() {
	atomicMu.Lock()
	x1 = (x3 + 1) % 4
	flag1 = true
	atomicMu.Unlock()
}

// T2 copies x1 to x2.
func T2() {
	atomicMu.Lock()
	x2 = x1
	flag2 = true
	atomicMu.Unlock()
}

// T3 copies x2 to x3.
func T3() {
	atomicMu.Lock()
	x3 = x2
	flag3 = true
	atomicMu.Unlock()
}

// T4 checks that the token went round consistently.
func T4(fail func(string)) {
	atomicMu.Lock()
	if flag1 && flag2 && flag3 && !(x1 == x2 && x2 == x3) {
		fail("token_ring: x1, x2, x3 differ")
	}
	atomicMu.Unlock()
}
