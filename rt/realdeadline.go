//go:build go1.21

package rt

import (
	"context"
	"slices"
	"time"
)

// A context the standard library made with a deadline (http.Client's
// Timeout, a net.Conn's) is cancelled by a real timer, which the virtual
// clock does not see: a responder that sleeps 100 ms of virtual time while
// the client's 1 ms timeout waits would win at once, where on a machine
// the timeout fires first. When a controlled goroutine takes the Done
// channel of such a context, its deadline becomes an instant of the
// virtual clock (as far ahead as it is in real time); a jump of the clock
// stops there, and the run waits for the real timer before time moves on.

// realDeadline is the Done channel of a context with a real deadline, and
// that deadline in real and in virtual time.
type realDeadline struct {
	done <-chan struct{}
	real time.Time
	v    int64
}

// Real deadlines further than realDeadlineMax ahead are left to real time
// (the run would wait that long with nothing to show); at most
// realDeadlinesMax are kept at once.
const (
	realDeadlineMax  = 2 * time.Second
	realDeadlinesMax = 64
	// realDeadlineSlack is how long the run waits past a real deadline for
	// its timer to close Done (a loaded machine runs it late).
	realDeadlineSlack = 200 * time.Millisecond
)

// CtxDone is ctx.Done() for a context.Context the program holds. A
// controlled goroutine that takes the channel of a context with a real
// deadline registers it with the clock (see realDeadline).
func CtxDone(ctx context.Context) <-chan struct{} {
	ch := ctx.Done()
	if ch == nil || !eng.active.Load() {
		return ch
	}
	dl, ok := ctx.Deadline()
	if !ok {
		return ch
	}
	if virtualDeadline(ctx, dl) {
		return ch
	}
	left := time.Until(dl)
	if left <= 0 || left > realDeadlineMax || isClosed(ch) {
		return ch // past (or a mock clock's), far, or done
	}
	e := eng
	e.mu.Lock()
	defer e.mu.Unlock()
	if g := e.callerG(); g == nil || e.bubble || e.finished || len(e.realDeadlines) >= realDeadlinesMax {
		return ch
	}
	for _, r := range e.realDeadlines {
		if r.done == ch {
			return ch
		}
	}
	e.realDeadlines = append(e.realDeadlines, realDeadline{done: ch, real: dl, v: e.vnow() + int64(left)})
	return ch
}

// virtualDeadline tells whether dl, ctx's deadline, is the virtual clock's:
// a context the program made under control, or a child that inherits its
// deadline (a WithCancel child of a WithTimeout waited d plus the slack in
// real time for a deadline of d).
func virtualDeadline(ctx context.Context, dl time.Time) bool {
	v, isV := ctx.Value(vctxKey).(*vctx)
	if !isV {
		return false
	}
	vd, ok, virtual := v.deadlineOf()
	return ok && virtual && vd.Equal(dl)
}

// isClosed tells whether a Done channel is closed (nothing is ever sent on
// one).
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// waitRealDeadline is called when every controlled goroutine waits and the
// clock would jump to its next wake-up: if a real deadline comes first, the
// clock moves to it and the run waits, idle, for its timer (then decides
// again). It drops the deadlines whose contexts are done; closed reports
// that one was (a goroutine may wait on it). e.mu is held.
func (e *engine) waitRealDeadline() (waiting, closed bool) {
	if len(e.realDeadlines) == 0 || e.rootDone || e.bubble {
		return false, false
	}
	e.realDeadlines = slices.DeleteFunc(e.realDeadlines, func(r realDeadline) bool {
		if isClosed(r.done) {
			closed = true
			return true
		}
		return time.Since(r.real) > realDeadlineSlack // its timer never came: not a real one
	})
	if closed || len(e.realDeadlines) == 0 {
		return false, closed
	}
	first := slices.MinFunc(e.realDeadlines, func(a, b realDeadline) int { return a.real.Compare(b.real) })
	if next := e.clock.nextDue(e, false); next >= 0 && next != never && next < first.v {
		return false, false // a virtual wake-up comes first
	}
	if first.v > e.vnow() {
		e.clock.passTo(e, first.v)
	}
	idx, step := e.runIdx, e.steps
	wait := time.Until(first.real)
	time.AfterFunc(max(wait, 0), func() {
		periodOwn.Add(1) // not a goroutine of the program's (freshOutside)
		defer periodOwn.Add(-1)
		select {
		case <-first.done:
		case <-time.After(realDeadlineSlack):
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.active.Load() && !e.finished && e.runIdx == idx && e.steps == step && e.cur == nil && e.transit == 0 {
			e.decide(nil)
		}
	})
	e.cur = nil
	e.goIdle()
	return true, false
}
