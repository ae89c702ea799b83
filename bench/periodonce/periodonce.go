// Package periodonce renders Figure 1 of the PERIOD paper (Wen et al., ICSE
// 2022; /work/shared/seeds/period-icse22.txt), which the paper simplified
// from a CVE: two threads run once(), synchronised by a heap-allocated lock
// and the plain variables done and waiters; the last waiter frees the lock
// and sets it to nil. Depending on the interleaving this is a nil pointer
// dereference, a use after free or a double free, all modelled as panics.
package periodonce

import "sync"

// Lock models a malloc'ed pthread mutex that can be freed; using or freeing
// it after Free panics, like the memory error it stands for.
type Lock struct {
	mu    sync.Mutex
	freed bool
}

// Lock acquires the lock.
func (l *Lock) Lock() {
	if l.freed {
		panic("use after free: Lock")
	}
	l.mu.Lock()
}

// Unlock releases the lock.
func (l *Lock) Unlock() {
	if l.freed {
		panic("use after free: Unlock")
	}
	l.mu.Unlock()
}

// Free releases the lock's memory.
func (l *Lock) Free() {
	if l.freed {
		panic("double free")
	}
	l.freed = true
}

var (
	lock    *Lock
	waiters int
	done    bool
)

// Reset is main()'s set-up: allocate the lock, clear done and waiters.
func Reset() {
	lock = &Lock{}
	waiters = 0
	done = false
}

// Once runs the critical section at most once; the last waiter frees the lock.
func Once() {
	if done {
		return
	}
	waiters++
	lock.Lock()
	// do something ...
	if !done {
		done = true
	}
	lock.Unlock()
	w := waiters - 1 // C: if (!--waiters)
	waiters = w
	if w == 0 {
		lock.Free()
		lock = nil
	}
}
