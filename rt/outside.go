//go:build go1.21

package rt

import (
	"bytes"
	"runtime"
	"strconv"
	"time"
)

// outsideSettle bounds how long a run whose controlled goroutines are all
// blocked waits for goroutines outside control that are still running: a
// verdict waits, never a step, so the bound is generous (a loaded machine
// may leave a runnable goroutine unscheduled for a long while).
const outsideSettle = 3 * time.Second

// initSettle bounds how long the start of exploration waits for goroutines
// that a package's init or TestMain started (settleInit).
const initSettle = time.Second

// settleOutside is called, e.mu held, when no controlled goroutine can move
// and some wait: a deadlock or a leak is about to be reported. A goroutine
// Period does not control (one a package's init started, a worker of
// uninstrumented code) may be running at that moment, about to close the
// channel or release the lock they wait for: the partner of a controlled
// send or receive that found it in the real channel's queue runs on at once,
// outside the model. Go would let it run; so does the engine, with e.mu
// released, until no such goroutine is running or runnable (or for
// outsideSettle), or holds or waits for a lock in the model. It reports whether it waited: the caller then looks again
// for goroutines the outside one made ready.
func (e *engine) settleOutside() bool {
	waiting := false
	for _, g := range e.gs {
		if g.status == gParked || g.status == gSubtest {
			waiting = true
			break
		}
	}
	if !waiting {
		return false
	}
	deadline := time.Now().Add(outsideSettle)
	waited := false
	pause := 20 * time.Microsecond
	for !e.finished && (e.outsideHolds() || e.outsideRunnable()) && time.Now().Before(deadline) {
		waited = true
		e.mu.Unlock()
		time.Sleep(pause)
		if pause < time.Millisecond {
			pause *= 2
		}
		e.mu.Lock()
	}
	return waited && !e.finished
}

// enterFrame is in the stack of a goroutine that waits for e.mu in a hook.
var enterFrame = []byte("github.com/period-dev/period/rt.(*engine).enter(")

// rtFrame is in the stack of a goroutine inside this package: one blocked
// on a lock there waits for e.mu (outsideLock, outsideUnlock and other hooks
// of goroutines outside control take it directly) and goes on once the
// caller releases it.
var rtFrame = []byte("\ngithub.com/period-dev/period/rt.")

// lockWait reports whether a goroutine status is a wait for a sync lock.
func lockWait(status []byte) bool {
	return bytes.HasPrefix(status, []byte("sync.Mutex.Lock")) || bytes.HasPrefix(status, []byte("sync.RWMutex")) || bytes.HasPrefix(status, []byte("semacquire"))
}

// outsideRunnable reports whether a goroutine other than the caller and the
// controlled ones is running or runnable. e.mu is held.
func (e *engine) outsideRunnable() bool {
	return othersRunnable(func(id int64) bool { return e.byGoid[id] != nil })
}

// settleInit waits (at most initSettle) until no goroutine but the
// caller runs: goroutines that a package's init or TestMain started (a
// loader that fills a package-level cache) finish what they were doing
// before the package variables are snapshotted as their state after init.
func settleInit() {
	deadline := time.Now().Add(initSettle)
	pause := 20 * time.Microsecond
	for othersRunnable(nil) && time.Now().Before(deadline) {
		time.Sleep(pause)
		if pause < time.Millisecond {
			pause *= 2
		}
	}
}

// othersRunnable reports whether a goroutine other than the caller and
// those skip names is running or runnable, or waits for e.mu in a hook.
func othersRunnable(skip func(id int64) bool) bool {
	self := goid()
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 16<<20 {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	for _, st := range bytes.Split(buf, []byte("\n\n")) {
		rest, ok := bytes.CutPrefix(st, []byte("goroutine "))
		if !ok {
			continue
		}
		sp := bytes.IndexByte(rest, ' ')
		i, j := bytes.IndexByte(rest, '['), bytes.IndexByte(rest, ']')
		if sp < 0 || i < 0 || j < i {
			continue
		}
		id, err := strconv.ParseInt(string(rest[:sp]), 10, 64)
		if err != nil || id == self || skip != nil && skip(id) {
			continue
		}
		status := rest[i+1 : j]
		if bytes.HasPrefix(status, []byte("running")) || bytes.HasPrefix(status, []byte("runnable")) || bytes.HasPrefix(status, []byte("preempted")) {
			return true
		}
		if bytes.Contains(rest, enterFrame) || lockWait(status) && bytes.Contains(rest, rtFrame) {
			return true // it waits for e.mu, held by the caller, to go on
		}
	}
	return false
}
