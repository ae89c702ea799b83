//go:build go1.25

package rt

import (
	"testing"
	"testing/synctest"

	"github.com/period-dev/period/strategy"
)

// SynctestTest is synctest.Test(t, f). Under control every run is already a
// bubble of Period's own: its clock starts at midnight UTC, 2000-01-01, as a
// bubble's does, moves only when every goroutine is blocked, and blocking is
// modelled exactly (a run where all are blocked is a deadlock). So f runs on
// the calling goroutine, its goroutines controlled like all others.
func SynctestTest(site string, t *testing.T, f func(*testing.T)) {
	e := eng
	_, md := e.enter()
	switch md {
	case modePlain:
		synctest.Test(t, f)
		return
	case modeSkip:
		return
	}
	nested := e.bubble
	if !nested {
		e.enterBubble()
	}
	e.mu.Unlock()
	defer func() {
		if !nested {
			e.mu.Lock()
			e.leaveBubble()
			e.mu.Unlock()
		}
	}()
	f(t)
}

// SynctestWait is synctest.Wait(): a key point that becomes ready once every
// other goroutine of the run is durably blocked (parked and not ready); it
// does not advance the clock.
func SynctestWait(site string) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		synctest.Wait()
		return
	case modeSkip:
		return
	}
	g.p = pending{op: strategy.OpWGWait, site: site, bubbleWait: true, ready: func() bool { return e.othersBlocked(g) }}
	e.point(g)
	if e.race.on {
		// As under -race: what every other goroutine of the bubble did
		// before it blocked or ended happens before Wait returns (the
		// others are all blocked now, so their clocks say just that).
		for _, o := range e.gs {
			if o != g && o.status != gDone {
				g.vc.join(o.vc)
			}
		}
		g.vc.join(e.race.bubbleEnded)
	}
	e.mu.Unlock()
}

// othersBlocked tells whether every goroutine but g is blocked. A goroutine
// blocked for real on a channel or lock of code Period does not see (the
// reader of a net.Pipe, as the in-memory transports of MCP's SDK have) is
// durably blocked, as synctest defines it: only the bubble can wake it.
// e.mu is held.
func (e *engine) othersBlocked(g *gstate) bool {
	detached := false
	for _, o := range e.gs {
		if o == g {
			continue
		}
		switch o.status {
		case gDone, gSubtest:
		case gParked:
			if !o.p.bubbleWait && e.ready(o) {
				return false
			}
		case gDetached:
			detached = true
		default: // running, settling, or outside control
			return false
		}
	}
	// One look at every stack, only once the others are blocked.
	return !detached || e.bubble && e.detachedDurablyBlocked()
}
