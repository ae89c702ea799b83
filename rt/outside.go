//go:build go1.21

package rt

import (
	"bytes"
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
	// The deciding goroutine (e.cur, or none) waits here for the engine,
	// not in the program: the watchdog must not detach it meanwhile.
	e.settlingOutside = true
	defer func() { e.settlingOutside = false }()
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
	return othersRunnable(func(id int64) bool { return e.byGoid.get(id) != nil })
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
	buf := allStacks()
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

// outsideSet records the goroutines outside control that called hooks in a
// run. The clock waits for such goroutines before it jumps (outsideGrace),
// as their work may wake controlled ones; once every one of them has
// exited, nothing is left to wait for. A test whose helper goroutine called
// t.Fatal while a library's one-second ticker kept ticking waited a real
// second per tick, for ten minutes (go-kit's NATS tests, whose servers all
// listen on one port, beside each other under -p).
type outsideSet struct {
	ids  map[int64]bool
	many bool // more than maxOutsideGs: not tracked, taken as alive

	// The last look at the process's goroutines: at most one per
	// outsideLookEvery while they live, none once they were gone with
	// the same number of goroutines recorded.
	lookedAt time.Time
	goneAt   int // len(ids)+1 when they were found gone
}

// maxOutsideGs bounds the goroutines outside control a run tracks.
const maxOutsideGs = 256

// bgQuiet: goroutines that predate the first run and ran the program's
// code less than this long ago are taken to run again soon (engine.bgLive).
const bgQuiet = time.Second

// outsideLookEvery spaces the looks (a stack dump of every goroutine) for
// goroutines outside control that are still alive.
const outsideLookEvery = 50 * time.Millisecond

func (s *outsideSet) add(id int64) {
	if s.many || s.ids[id] {
		return
	}
	if len(s.ids) >= maxOutsideGs {
		s.many = true
		return
	}
	if s.ids == nil {
		s.ids = map[int64]bool{}
	}
	s.ids[id] = true
}

func (s *outsideSet) reset() {
	clear(s.ids)
	s.many, s.lookedAt, s.goneAt = false, time.Time{}, 0
}

// gone reports whether every goroutine recorded has exited.
func (s *outsideSet) gone() bool {
	if s.many || len(s.ids) == 0 {
		return false
	}
	if s.goneAt == len(s.ids)+1 {
		return true
	}
	if time.Since(s.lookedAt) < outsideLookEvery {
		return false
	}
	s.lookedAt = time.Now()
	alive := goroutineStatuses()
	for id := range s.ids {
		if _, ok := alive[id]; ok {
			return false
		}
	}
	s.goneAt = len(s.ids) + 1
	return true
}
