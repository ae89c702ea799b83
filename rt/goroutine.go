//go:build go1.21

package rt

import (
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/period-dev/period/strategy"
)

// Go is `go f()`: the instrumenter evaluates the function and its arguments
// first, in the parent, and passes a closure. The child is a controlled
// goroutine that starts parked at its start key point.
func Go(site string, f func()) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		go f()
		return
	case modeSkip:
		return
	}
	e.spawn(g, site, f)
	e.mu.Unlock()
}

// Gosched is runtime.Gosched(): a key point where any goroutine may run.
func Gosched(site string) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		runtime.Gosched()
	case modeControl:
		e.keyPoint(g, strategy.OpYield, site, nil)
		e.mu.Unlock()
	}
}

// Exit is os.Exit(code). Inside a controlled run it is a bug (the test
// process would die), reported with the schedule, and the run ends.
func Exit(site string, code int) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		os.Exit(code)
	case modeControl:
		e.report(bug{kind: "panic", message: fmt.Sprintf("os.Exit(%d) called by goroutine g%s", code, g.path), location: site})
		e.stop()
		g.status = gDone
		e.mu.Unlock()
		g.unwind()
	case modeSkip:
		g.unwind()
	}
}

// TRun is t.Run(name, f) inside a test body: the subtest's goroutine (made by
// package testing) becomes a controlled child of the caller, which waits for
// it without a key point, like a function call.
func TRun(site string, t *testing.T, name string, f func(*testing.T)) bool {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		return t.Run(name, f)
	case modeSkip:
		return false
	}
	c := e.newG(g)
	e.inherit(g, c)
	c.status = gRunning
	e.cur = c
	g.status = gSubtest
	e.exited.Add(1)
	e.mu.Unlock()
	ok := t.Run(name, func(t *testing.T) {
		defer e.exited.Done()
		e.mu.Lock()
		c.t = t
		c.goid = goid()
		e.byGoid[c.goid] = c
		e.mu.Unlock()
		normal := false
		defer func() {
			r := recover()
			e.subtestExit(g, c, r, normal)
		}()
		f(t)
		normal = true
	})
	e.mu.Lock()
	if g.abort || e.finished {
		g.status = gDone
		e.mu.Unlock()
		g.unwind()
	}
	if e.cur != g {
		e.park(g) // subtestExit left g parked: another goroutine is current
	}
	e.mu.Unlock()
	return ok
}

// subtestExit ends subtest goroutine c; its parent p resumes as the current goroutine.
func (e *engine) subtestExit(p, c *gstate, r any, normal bool) {
	var stack []byte
	if r != nil {
		stack = panicStack()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.byGoid, c.goid)
	wasCur := e.cur == c
	c.status = gDone
	e.settle(c)
	if e.finished {
		return
	}
	if r != nil {
		e.report(bug{kind: "panic", message: fmt.Sprintf("panic in subtest goroutine g%s: %v\n%s", c.path, r, cleanStack(stack)), location: panicLocation(stack)})
		e.stop()
		return
	}
	p.status = gRunning
	if e.race.on {
		p.vc.join(c.vc)
	}
	if wasCur || e.cur == nil {
		e.cur = p
	} else {
		// c blocked or was detached while another goroutine ran: p waits its turn.
		p.status = gParked
		p.p = pending{op: strategy.OpResume, site: p.lastSite}
	}
}
