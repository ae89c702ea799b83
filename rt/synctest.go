//go:build go1.25

package rt

import (
	"bytes"
	"runtime"
	"strconv"
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
	g, md := e.enter()
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
		e.preBubble = map[int64]bool{}
		eachGoroutine(func(id int64, _, _ []byte) { e.preBubble[id] = true })
		e.bubbleRoot = g.goid
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

// bubbleOutsideBlocked tells whether every goroutine of the bubble that
// Period does not control is durably blocked (bubbleDurablyBlocked's rule)
// or gone: the detached ones, and those started since the bubble began,
// that ran the program's code (outsideGs) or that a controlled goroutine
// started, directly or through others outside control started since (a
// Server.Shutdown's hooks, which may not have run yet). Goroutines outside
// control that were there before (a server the test started first), and
// those they start, are not the bubble's. e.mu is held.
func (e *engine) bubbleOutsideBlocked() bool {
	type gInfo struct {
		parent        int64
		durable, ours bool
	}
	all := map[int64]gInfo{}
	eachGoroutine(func(id int64, status, stack []byte) {
		all[id] = gInfo{
			parent:  creatorID(stack),
			ours:    bytes.Contains(stack, periodCreated) && !bytes.Contains(stack, programCreated),
			durable: durablyBlockedOutside(status, stack),
		}
	})
	for _, id := range e.detachedIDs() {
		if g, alive := all[id]; alive && !g.durable {
			return false
		}
	}
	startedByRun := func(id int64) bool {
		for range 64 {
			if e.byGoid.get(id) != nil {
				// A controlled goroutine started in the bubble, or its
				// root (f runs on synctest.Test's caller); one that was
				// there before (a server's, started by the test first)
				// starts goroutines outside the bubble, as under go test.
				return !e.preBubble[id] || id == e.bubbleRoot
			}
			g, alive := all[id]
			if !alive || g.ours || e.preBubble[id] {
				return false
			}
			id = g.parent
		}
		return false
	}
	for id, g := range all {
		if g.durable || g.ours || e.byGoid.get(id) != nil || e.preBubble[id] {
			continue
		}
		if e.outsideGs.ids[id] || startedByRun(g.parent) {
			return false
		}
	}
	return true
}

// periodCreated is in the stack of a goroutine Period started (a helper
// running t.Run for a subtest), and programCreated in that of one the
// program started outside control (a go statement run by a goroutine
// outside control: goFrom in plain mode).
var (
	periodCreated  = []byte("\ncreated by github.com/period-dev/period/rt.")
	programCreated = []byte("\ncreated by github.com/period-dev/period/rt.goFrom")
)

// creatorID is the id of the goroutine that started the one whose stack
// this is ("created by f in goroutine N"); 0 if the stack does not say.
func creatorID(stack []byte) int64 {
	i := bytes.LastIndex(stack, []byte(" in goroutine "))
	if i < 0 {
		return 0
	}
	rest := stack[i+len(" in goroutine "):]
	if j := bytes.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	id, _ := strconv.ParseInt(string(rest), 10, 64)
	return id
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
	if e.bubble && (e.outside > 0 || runtime.NumGoroutine() > len(e.preBubble)) {
		// Goroutines outside control of the bubble (net/http's
		// connection goroutines, started inside it by a controlled
		// one) are waited for too, as synctest's Wait does (x/net's
		// http2 tests on net/http's transport checked a RoundTrip still
		// on its way). Only when such goroutines ran the program's code
		// or may exist (more goroutines than when the bubble began): one
		// look at every stack, once the controlled ones are blocked.
		return e.bubbleOutsideBlocked()
	}
	// One look at every stack, only once the others are blocked.
	return !detached || e.bubble && e.detachedDurablyBlocked()
}
