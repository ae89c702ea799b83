// Package spinlock is a test-and-set lock built on compare-and-swap.
package spinlock

import (
	"runtime"
	"sync/atomic"
)

// Lock spins with runtime.Gosched until it wins the CAS; yielding lets the
// holder run, so the spin cannot starve it.
type Lock struct{ state int32 }

// Acquire takes the lock.
func (l *Lock) Acquire() {
	for !atomic.CompareAndSwapInt32(&l.state, 0, 1) {
		runtime.Gosched()
	}
}

// Release frees the lock.
func (l *Lock) Release() { atomic.StoreInt32(&l.state, 0) }
