//go:build go1.21

package rt

import (
	"sync"
	"time"
	"unsafe"
)

// Mutexes shared with goroutines outside control.
//
// Controlled goroutines lock a mutex in the model only. A goroutine Period
// does not control (one that a package's init or TestMain started, a
// net/http handler, a worker of uninstrumented code) that runs instrumented
// code locks the real mutex; during a run it also takes the lock in the
// model, waiting (in real time) until no controlled goroutine holds it, and
// controlled goroutines wait for it in turn. Without that, both would be in
// the critical section at once: a false data race, or a fatal concurrent
// map write, that go test never shows.

// outsideHold marks the model's holds of goroutines outside control.
const outsideSite = "(a goroutine outside control)"

// outsideLock takes p in the model for a goroutine outside control (the
// caller then takes the real lock). With try, it does not wait: false means a
// controlled goroutine holds p.
func (e *engine) outsideLock(p unsafe.Pointer, read, try bool) bool {
	pause := 10 * time.Microsecond
	var waitingIn *mutexModel // the model whose outsideWait counts this writer
	defer func() {
		if waitingIn != nil {
			e.mu.Lock()
			waitingIn.outsideWait--
			e.lockChanged(waitingIn)
			e.mu.Unlock()
		}
	}()
	for {
		e.mu.Lock()
		if !e.active.Load() || e.finished {
			e.mu.Unlock()
			return true
		}
		mm := e.mutexOf(p)
		if waitingIn != nil && waitingIn != mm {
			waitingIn.outsideWait-- // a new run, a new model
			e.lockChanged(waitingIn)
			waitingIn = nil
		}
		if !mm.held && mm.announce == nil && (read || mm.readers == 0) {
			if read {
				mm.readers++
				mm.outsideR++
				mm.rholders = append(mm.rholders, lockHold{nil, outsideSite})
			} else {
				mm.held, mm.outside = true, true
				e.lockChanged(mm)
				mm.holder = lockHold{nil, outsideSite}
			}
			e.outsideAcquire(p, read)
			e.mu.Unlock()
			return true
		}
		if try {
			e.mu.Unlock()
			return false
		}
		if !read && waitingIn == nil {
			// Like a writer waiting in Go's mutex (starvation mode), it
			// goes before controlled goroutines that come later.
			waitingIn = mm
			mm.outsideWait++
			e.lockChanged(mm)
		}
		e.mu.Unlock()
		time.Sleep(pause)
		if pause < 100*time.Microsecond {
			pause *= 2
		}
	}
}

// outsideUnlock releases the model's hold of a goroutine outside control on
// p, if this run's model has one; the caller then unlocks the real mutex.
func (e *engine) outsideUnlock(p unsafe.Pointer, read bool) {
	if !e.active.Load() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.finished {
		return
	}
	mm := e.models.mutex.lookup((*byte)(p))
	if mm == nil {
		return
	}
	switch {
	case read && mm.outsideR > 0:
		mm.outsideR--
		mm.readers--
		for i, h := range mm.rholders {
			if h.g == nil {
				mm.rholders = append(mm.rholders[:i], mm.rholders[i+1:]...)
				break
			}
		}
	case !read && mm.held && mm.outside:
		mm.held, mm.outside = false, false
		e.lockChanged(mm)
		mm.holder = lockHold{}
	default:
		return
	}
	e.outsideRelease(p, read)
	e.touch(uintptr(p)) // controlled goroutines waiting for p may go on
	// They may be all that could run, the run idle meanwhile (another
	// waits for a child process that runs on): without a decision now,
	// they waited for it to end (ginkgo's watch specs, whose gexec
	// buffer os/exec's goroutine writes to under its lock).
	e.kickIdleLocked()
}

// outsideHolds reports whether a goroutine outside control holds a lock in
// the model, or waits to take one. e.mu is held.
func (e *engine) outsideHolds() bool {
	for _, en := range e.models.mutex {
		mm := en.v
		if mm.held && mm.outside || mm.outsideR > 0 || mm.outsideWait > 0 {
			return true
		}
	}
	return false
}

// The plain halves of the hooks for goroutines outside control: the model's
// hold first (it waits for controlled goroutines), then the real lock (it
// waits for other goroutines outside control), held only as long as the
// critical section.

func plainLock(m *sync.Mutex) {
	eng.outsideLock(unsafe.Pointer(m), false, false)
	m.Lock()
}

func plainUnlock(m *sync.Mutex) {
	eng.outsideUnlock(unsafe.Pointer(m), false)
	m.Unlock()
}

// outsideTry is a TryLock (TryRLock if read) outside control: the model's
// hold, then the real one, or neither.
func outsideTry(p unsafe.Pointer, read bool, try func() bool) bool {
	if !eng.outsideLock(p, read, true) {
		return false
	}
	if !try() {
		eng.outsideUnlock(p, read)
		return false
	}
	return true
}

func plainTryLock(m *sync.Mutex) bool {
	return outsideTry(unsafe.Pointer(m), false, m.TryLock)
}

func plainRWLock(m *sync.RWMutex) {
	eng.outsideLock(unsafe.Pointer(m), false, false)
	m.Lock()
}

func plainRWUnlock(m *sync.RWMutex) {
	eng.outsideUnlock(unsafe.Pointer(m), false)
	m.Unlock()
}

func plainRWTryLock(m *sync.RWMutex) bool {
	return outsideTry(unsafe.Pointer(m), false, m.TryLock)
}

func plainRLock(m *sync.RWMutex) {
	eng.outsideLock(unsafe.Pointer(m), true, false)
	m.RLock()
}

func plainRUnlock(m *sync.RWMutex) {
	eng.outsideUnlock(unsafe.Pointer(m), true)
	m.RUnlock()
}

func plainTryRLock(m *sync.RWMutex) bool {
	return outsideTry(unsafe.Pointer(m), true, m.TryRLock)
}

// WaitGroups shared with goroutines outside control.
//
// Controlled goroutines count a WaitGroup in the model only. While the
// model holds a count of it in a run, a goroutine outside control (a
// net/http handler that waits for the test to release it, one that signals
// the test it is done) counts and waits in the model too: otherwise its
// Wait on the real, zero counter would return at once (labstack/echo's
// TestTimeoutWithFullEchoStack got its handler's answer before the timeout),
// and its Done would take the real counter below zero.

// outsideWGAdd adds n to wg's count in the model for a goroutine outside
// control, if the model counts it now; false: the real WaitGroup is used.
func (e *engine) outsideWGAdd(wg *sync.WaitGroup, n int) bool {
	if !e.active.Load() {
		return false
	}
	e.mu.Lock()
	m := e.models.wg.lookup(wg)
	if e.finished || m == nil || m.n <= 0 || m.n+n < 0 {
		e.mu.Unlock()
		return false
	}
	m.n += n
	if n < 0 {
		e.outsideRelease(unsafe.Pointer(wg), false)
	}
	if m.n == 0 {
		if m.waiting {
			m.waiting = false // the waiters are woken
			m.gen++
		}
		e.touch(uintptr(unsafe.Pointer(wg))) // a controlled waiter may go
	}
	e.mu.Unlock()
	e.kickIdle()
	return true
}

// outsideWGSync records, for a goroutine outside control, a Done of wg
// that the model does not count (release) or a Wait on wg that returned.
// e.mu is not held.
func (e *engine) outsideWGSync(wg *sync.WaitGroup, release bool) {
	if !e.active.Load() {
		return
	}
	e.mu.Lock()
	if !e.finished {
		if release {
			e.outsideRelease(unsafe.Pointer(wg), false)
		} else {
			e.outsideAcquire(unsafe.Pointer(wg), false)
		}
	}
	e.mu.Unlock()
}

// outsideWGWait waits, in real time, until the model no longer counts wg
// (or the run ends), for a goroutine outside control.
func (e *engine) outsideWGWait(wg *sync.WaitGroup) {
	pause := 10 * time.Microsecond
	for e.active.Load() {
		e.mu.Lock()
		m := e.models.wg.lookup(wg)
		busy := !e.finished && m != nil && m.n > 0
		e.mu.Unlock()
		if !busy {
			e.outsideWGSync(wg, false)
			return
		}
		time.Sleep(pause)
		pause = min(2*pause, time.Millisecond)
	}
}
