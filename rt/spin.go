//go:build go1.21

package rt

// Spin parking. A goroutine that polls shared state (atomic loads, failed
// CompareAndSwaps, shared reads, failed TryLocks, selects that took their
// default) and then yields with runtime.Gosched is waiting for one of the
// objects it polled to change: running it again before then repeats the
// same observations. So it parks at the Gosched until another goroutine
// writes one of them (an atomic store or read-modify-write, a CAS that
// succeeds, a shared write, an Unlock, a channel operation), or until no
// other goroutine can run: then every parked spinner runs again, as when
// they were all enabled, so parking never makes a deadlock or a hang of
// its own. With a thousand workers spinning on a lock, a decision no longer
// picks among a thousand spinners while the holder waits its turn
// (ants' spin lock: docs/scale.md). The schedules left out differ from
// explored ones only in how often a spinner repeated an observation.
// Replays follow their record and do not park.

// spinParking turns spin parking on (Period's own tests compare).
var spinParking = true

// spinRecheck: every spinRecheck steps, every parked spinner polls again,
// whether or not what it polled was written (a write by code outside
// control is not seen): parking is bounded unfairness, as unfairBound is.
const spinRecheck = 1 << 14

// spinWakeMax is how many spinners one write wakes, first parked first:
// with a thousand spinners on a lock, every unlock would otherwise make a
// thousand goroutines try once more and park again, each try a decision
// among all of them. The others stay parked, first in line at the next
// write (or all run when nothing else can). With at most this many
// spinners on an object, every one polls again, as before.
const spinWakeMax = 4

// maxSpinKeys bounds the objects a spinner's wait is keyed on; a goroutine
// that polled more since its last effect does not park.
const maxSpinKeys = 8

// polled records that g, running, looked at key without changing anything.
// e.mu is held.
func (e *engine) polled(g *gstate, key uintptr) {
	if g.spinMany || key == 0 {
		return
	}
	for _, k := range g.spinKeys {
		if k == key {
			return
		}
	}
	if len(g.spinKeys) == maxSpinKeys {
		g.spinMany = true
		return
	}
	g.spinKeys = append(g.spinKeys, key)
}

// acted records that g changed state others may wait for: what it polled
// before is no reason to wait.
func (g *gstate) acted() {
	g.spinKeys = g.spinKeys[:0]
	g.spinMany = false
}

// wrote wakes the spinners parked on key. e.mu is held.
func (e *engine) wrote(key uintptr) {
	if e.spinParked > 0 {
		e.touch(key)
	}
}

// yieldPark decides, as g arrives at a Gosched, whether it parks there
// until something it polled is written. e.mu is held.
func (e *engine) yieldPark(g *gstate) {
	if len(g.spinKeys) == 0 || g.spinMany || e.replay != nil || e.free || g.helper || !spinParking {
		g.acted() // a yield after nothing polled: the next one starts afresh
		return
	}
	g.spinPark = true
	e.spinParked++
	if len(e.spinners) >= 2*e.spinParked+16 {
		live := e.spinners[:0]
		for _, s := range e.spinners {
			if s.spinPark {
				live = append(live, s)
			}
		}
		clear(e.spinners[len(live):])
		e.spinners = live
	}
	e.spinners = append(e.spinners, g)
}

// unpark makes spinner g runnable again; it must poll anew to park again.
// e.mu is held.
func (e *engine) unpark(g *gstate) {
	g.spinPark = false
	e.spinParked--
	g.acted()
}

// wakeSpinners unparks every parked spinner: nothing else can run. It
// reports whether there was one. e.mu is held.
func (e *engine) wakeSpinners() bool {
	if e.spinParked == 0 {
		return false
	}
	for _, g := range e.spinners {
		if g.spinPark {
			e.unpark(g)
			e.addCand(g)
		}
	}
	clear(e.spinners)
	e.spinners = e.spinners[:0]
	return true
}

// maxPureYields is how many Gosched calls in a row, with no key point
// between them, run without one of their own: between two such calls the
// goroutine touches nothing another goroutine can see (or nothing known to
// be shared yet), so a switch at the second gives no interleaving that a
// switch at the first does not (partial-order reduction). A backoff loop of
// sixteen yields is one scheduling point, not sixteen. Every
// maxPureYields-th call is a key point again, so a loop that polls memory
// not yet known to be shared still lets the others run.
const maxPureYields = 15

// pureYield tells whether g's Gosched can run without a key point, and
// counts it. The clock moves as for a step. e.mu is held.
func (e *engine) pureYield(g *gstate) bool {
	if g.yields == 0 || g.yields > maxPureYields {
		g.yields = 1
		return false
	}
	g.yields++
	if !e.bubble {
		e.drift += stepDrift
	}
	return true
}
