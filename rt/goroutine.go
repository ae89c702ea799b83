//go:build go1.21

package rt

import (
	"context"
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/period-dev/period/strategy"
)

// Go is `go f()`: the instrumenter evaluates the function and its arguments
// first, in the parent, and passes a closure. The child is a controlled
// goroutine that starts parked at its start key point.
func Go(site string, f func()) { goFrom(site, f, 3) }

// goFrom starts f; skip is runtime.Callers' skip that lands on the user's
// function executing the go statement (or calling wg.Go), which leak reports
// name as the creator: a frame of rt would tell the user nothing.
func goFrom(site string, f func(), skip int) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		go f()
		return
	case modeSkip:
		return
	}
	var pc [1]uintptr
	runtime.Callers(skip, pc[:])
	e.spawn(g, site, f, pc[0])
	if g.status == gDetached && e.cur == nil && e.transit == 0 && !e.finished && !e.free {
		// A detached parent (it computed long, or came back from a real
		// wait, with no key point since) decides nothing: with nobody
		// current the child would wait for a decision that never comes
		// while the parent blocks on it for real (a pipe it then reads).
		e.decide(nil)
	}
	e.hookDone(g) // in free mode the child may start at once
}

// NumGoroutine is runtime.NumGoroutine(). Under control it is the run's
// live goroutines (the test's among them) plus the main goroutine, as under
// go test, not the real count: that one moves with
// goroutines that come and go on their own (Period's watchdog timer, a
// previous test's stragglers), and a test that compares counts before and
// after starting goroutines must see its own only, the same in every replay.
func NumGoroutine() int {
	e := eng
	_, md := e.enter()
	if md != modeControl {
		return runtime.NumGoroutine()
	}
	defer e.mu.Unlock()
	n := 1
	for _, g := range e.gs {
		if g.status != gDone && !g.helper {
			n++
		}
	}
	return n
}

// GC is runtime.GC(). A test collects to see a finalizer, a cleanup or a
// weak pointer do its work; race detection's record of the memory that
// goroutines shared holds those addresses (a freed address given to a new
// object must not inherit the old one's accesses), so it is dropped
// first: a race whose two accesses the collection separates is missed,
// none is invented. Sync objects' models hold theirs weakly (byObject).
//
// The finalizers and cleanups the collection queued run on the runtime's
// goroutines, outside control, within microseconds on a machine: for a
// second after the call the clock waits in real time before it jumps
// (collected), so that a test's timeout beside them does not fire first.
func GC() {
	e := eng
	if _, md := e.enter(); md == modeControl {
		e.mem.forget() // the records hold the memory they describe (keep)
		e.mu.Unlock()
	}
	runtime.GC()
	if _, md := e.enter(); md == modeControl {
		e.gcAt = time.Now()
		e.mu.Unlock()
	}
}

// collected tells whether a controlled goroutine called runtime.GC less
// than a second ago. e.mu is held.
func (e *engine) collected() bool {
	return !e.gcAt.IsZero() && time.Since(e.gcAt) < outsideGraceMax
}

// Iteration starts an iteration of a loop that ends by itself (a range over
// a slice, map, string or integer, a counted for loop) whose body polls:
// its poll checks for cancellation between items of work, some of which may
// touch only memory without hooks, so the poll counts as work (pollWork),
// not as a wait that lets virtual time jump.
func Iteration() {
	e := eng
	if _, md := e.enter(); md == modeControl {
		e.loopWork += pollWork
		e.mu.Unlock()
	}
}

// Gosched is runtime.Gosched(): a key point where any goroutine may run.
func Gosched(site string) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		runtime.Gosched()
	case modeSkip:
		e.mu.Lock()
		g.skips += skipYield - 1 // a yield after the run ended only waits: end such a spin sooner
		e.mu.Unlock()
	case modeControl:
		if e.pureYield(g) {
			e.mu.Unlock()
			return
		}
		e.yieldPark(g)
		e.keyPoint(g, strategy.OpYield, site, nil)
		e.hookDone(g)
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
		if !e.outlived(g, fmt.Sprintf("called os.Exit(%d)", code), "", site) {
			e.reportEnd(g, bug{kind: "panic", message: fmt.Sprintf("os.Exit(%d) called by goroutine g%s", code, g.path), location: site})
			e.stop()
		}
		g.status = gDone
		e.mu.Unlock()
		g.unwind()
	case modeSkip:
		g.unwind()
	}
}

// TRun is t.Run(name, f) inside a test body: the subtest's goroutine (made by
// package testing) becomes a controlled child of the caller, which waits for
// it without a key point, like a function call. The real t.Run is called
// from a helper goroutine, so that the caller can go on when the subtest
// calls t.Parallel (TParallel) instead of returning.
func TRun(site string, t *testing.T, name string, f func(*testing.T)) bool {
	if skipSubtest(t, name) {
		return true // as package testing does for a subtest -run leaves out
	}
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		return t.Run(name, f)
	case modeSkip:
		return false
	}
	e.leaveFree(g) // the subtest is handed control directly
	if e.cur != g {
		// g comes back from where the engine let others run beside it
		// (detached while a channel hand-off blocked it for real): it
		// waits for its turn before the subtest becomes the current
		// goroutine, or two would run at once (suture's
		// TestDoNotPropagate: its first subtest never started).
		e.keyPoint(g, strategy.OpYield, site, nil)
	}
	solo := e.solo.Load()
	c := e.newG(g)
	if solo {
		// g waits in t.Run as in a function call: the subtest is still
		// the run's only thread of control (soloHandOver).
		e.soloHandOver()
	}
	e.inherit(g, c)
	c.status = gRunning
	c.sub = &subtest{parent: g, back: make(chan struct{}), realDone: make(chan struct{})}
	e.cur = c
	g.status = gSubtest
	g.p.site = site
	g.inTRun = true
	exited := e.exited
	exited.Add(2) // the subtest goroutine and the helper calling t.Run
	periodLive.Add(2)
	e.mu.Unlock()
	var ok bool
	go func() {
		defer periodLive.Add(-1)
		defer exited.Done()
		defer close(c.sub.realDone)
		ok = t.Run(name, func(t *testing.T) {
			defer periodLive.Add(-1)
			defer exited.Done()
			e.mu.Lock()
			c.t = t
			c.goid = goid()
			e.byGoid.put(c.goid, c)
			e.mu.Unlock()
			sub := TName(t)
			defer e.inSubtest.Store(e.inSubtest.Swap(&sub)) // the parent's again after
			normal := false
			defer func() {
				r := recover()
				if !normal {
					e.mu.Lock()
					c.sub.bodyDone = true // its parallel subtests may go on
					e.touch(e.parallelKey())
					e.mu.Unlock()
					if r == nil {
						e.runCleanups(c) // t.FailNow, t.Skip
					}
				}
				e.subtestExit(g, c, r, normal)
			}()
			f(t)
			e.endParallel(c)
			e.runCleanups(c)
			normal = true
		})
	}()
	parallel := false
	select {
	case <-c.sub.realDone:
	case <-c.sub.back:
		parallel = true
	}
	e.mu.Lock()
	g.inTRun = false
	if g.abort || e.finished {
		g.status = gDone
		e.mu.Unlock()
		g.unwind()
	}
	if g.status == gDetached {
		// While package testing ended the subtest for real, g was
		// detached (inTRun keeps the watchdog's looks off it; this is
		// for any other way): it comes back as from any wait outside
		// control, or it would wait in park for a turn nobody gives a
		// detached goroutine (goccy/go-json's benchcheck: a false hang
		// after a TempDir's removal of a repository took milliseconds).
		e.keyPoint(g, strategy.OpYield, site, nil)
	} else if e.cur != g {
		e.park(g) // subtestExit left g parked: another goroutine is current
	}
	if parallel {
		ok = c.sub.parOK
	}
	e.mu.Unlock()
	return ok
}

// subtest is the state of a subtest goroutine made by TRun.
type subtest struct {
	parent   *gstate
	back     chan struct{} // closed when the subtest calls t.Parallel: the parent's t.Run returns
	realDone chan struct{} // closed when the real t.Run has returned
	parallel bool          // called t.Parallel: it runs once its parent's body has returned
	parOK    bool          // t.Run's result for a parallel subtest
	bodyDone bool          // this (sub)test's own function has returned: its parallel subtests run
	kids     []*gstate     // its parallel subtests
	endVC    vc            // clock at the end of the function, for its parallel subtests
	slot     bool          // a parallel subtest holding one of -test.parallel's slots
}

// kidsKey is the key a (sub)test waiting for its parallel subtests blocks
// under; each of them touches it as it ends.
func kidsKey(s *subtest) uintptr { return uintptr(unsafe.Pointer(s)) }

// TParallel is t.Parallel(). A subtest made under control by TRun returns
// from its parent's t.Run at once and waits, parked, until the parent's
// function has returned; the parent's t.Run does not end until its parallel
// subtests have (endParallel). For the test itself, which runs alone, it is
// a no-op: the parallel tests of a package are explored one by one.
func TParallel(site string, t *testing.T) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		t.Parallel()
		return
	case modeSkip:
		return
	}
	if g.t != t || g.sub == nil || g.sub.parent == nil || g.sub.parallel {
		e.mu.Unlock()
		return
	}
	g.lastSite = site
	s := g.sub
	p := s.parent
	if p.sub == nil {
		p.sub = &subtest{}
	}
	ps := p.sub
	s.parallel = true
	s.parOK = !t.Failed()
	e.solo.Store(false) // it will run beside its parent's other subtests
	e.soloGoid.Store(0)
	ps.kids = append(ps.kids, g)
	// The parent goes on, as when a subtest returns: what the subtest did
	// before t.Parallel happens before the parent's t.Run returns (a copy
	// of a loop variable made there does not race with the next iteration).
	if e.race.on {
		p.vc.join(g.vc)
		g.vc.tick(g.slot)
	}
	p.status = gRunning
	e.cur = p
	g.status = gParked
	g.p = pending{op: strategy.OpResume, site: site, obj: e.parallelKey(), ready: func() bool { return ps.bodyDone && e.parRunning < parallelLimit() }}
	e.seq++
	g.seq = e.seq
	e.parked(g)
	close(s.back)
	e.park(g)
	s.slot = true
	e.parRunning++
	if e.race.on {
		g.vc.join(ps.endVC)
	}
	e.mu.Unlock()
}

// Parallel subtests run at most -test.parallel at a time (at least two), as
// under go test: the rest wait in t.Parallel for a slot. A thousand
// subtests each allowing itself five seconds, some running a subprocess,
// all released at once, spent half a minute of real time in their
// subprocesses, which the clock followed: every context ran out
// (mvdan.cc/sh's TestRunnerRun). Which waiting subtest takes a free slot
// is a scheduling choice, as it is a race in package testing.

// parallelKey is the key subtests waiting in t.Parallel block under: a
// parent's function returning or a slot freeing touches it. (The address
// of the counter: no channel, mutex or other key has it.)
func (e *engine) parallelKey() uintptr { return uintptr(unsafe.Pointer(&e.parRunning)) }

// releaseSlot: parallel subtest g's function has returned (or waits for
// its own parallel subtests, as package testing releases the slot then).
// e.mu is held.
func (e *engine) releaseSlot(g *gstate) {
	if g.sub != nil && g.sub.slot {
		g.sub.slot = false
		e.parRunning--
		e.touch(e.parallelKey())
	}
}

// parallelLimit is the test process's -test.parallel, at least 2: Period
// explores interleavings of parallel subtests even where go test would run
// them one by one (one processor).
var parallelLimit = sync.OnceValue(func() int {
	n := runtime.GOMAXPROCS(0)
	if f := flag.Lookup("test.parallel"); f != nil {
		if v, err := strconv.Atoi(f.Value.String()); err == nil {
			n = v
		}
	}
	return max(n, 2)
})

// endParallel is the end of the function of (sub)test g: its parallel
// subtests, parked in TParallel, run now, and g waits for all of them.
func (e *engine) endParallel(g *gstate) {
	e.mu.Lock()
	if g.sub == nil || len(g.sub.kids) == 0 || e.cur != g {
		e.mu.Unlock()
		return
	}
	s := g.sub
	s.bodyDone = true
	if e.race.on {
		s.endVC = g.vc.clone()
		g.vc.tick(g.slot)
	}
	e.touch(e.parallelKey()) // its parallel subtests may take slots
	h := slotHolder(g)
	if h != nil {
		e.releaseSlot(h)
	}
	kids := s.kids
	g.p = pending{op: strategy.OpWGWait, site: g.lastSite, obj: kidsKey(s), ready: func() bool {
		for _, k := range kids {
			if k.status != gDone {
				return false
			}
		}
		return true
	}}
	e.point(g)
	if e.race.on {
		for _, k := range kids {
			g.vc.join(k.vc)
		}
	}
	if h != nil && h != g {
		e.retakeSlot(g, h)
	}
	g.inTRun = true // the wait below is Period's own, as in TRun
	e.mu.Unlock()
	for _, k := range kids {
		<-k.sub.realDone // the failures of the subtests reach g's test
	}
	e.mu.Lock()
	g.inTRun = false
	e.mu.Unlock()
}

// slotHolder is the parallel (sub)test whose slot (sub)test g runs in: g
// itself, or the parallel test that g is a sequential subtest of, at any
// depth (package testing's t.Run hands its count on to the subtest). Nil
// for the test itself and its sequential subtests, which Period does not
// count.
func slotHolder(g *gstate) *gstate {
	for g != nil && g.sub != nil {
		if g.sub.parallel {
			return g
		}
		g = g.sub.parent
	}
	return nil
}

// retakeSlot: sequential subtest g of parallel test h gave h's slot up
// while its own parallel subtests ran (endParallel) and takes one back
// before it goes on, waiting for it if every slot is taken, as package
// testing's tRunner does (waitParallel). Without the give-up, parallel
// tests each running a sequential subtest with parallel subtests of its
// own held every slot while waiting for grandchildren that needed one
// (spf13/cast's table tests: a false deadlock). e.mu is held.
func (e *engine) retakeSlot(g, h *gstate) {
	if e.parRunning >= parallelLimit() {
		g.p = pending{op: strategy.OpResume, site: g.lastSite, obj: e.parallelKey(), ready: func() bool { return e.parRunning < parallelLimit() }}
		e.point(g)
	}
	e.parRunning++
	h.sub.slot = true
}

// subtestExit ends subtest goroutine c; its parent p resumes as the current goroutine.
func (e *engine) subtestExit(p, c *gstate, r any, normal bool) {
	var stack []byte
	if r != nil {
		stack = panicStack()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.byGoid.del(c.goid)
	wasCur := e.cur == c
	if c.status == gDetached {
		e.undetach()
	}
	c.status = gDone
	e.settle(c)
	if e.finished {
		return
	}
	if r != nil {
		e.reportEnd(c, bug{kind: "panic", message: fmt.Sprintf("panic in subtest goroutine g%s: %v\n%s", c.path, r, cleanStack(stack)), location: panicLocation(stack)})
		e.stop()
		return
	}
	if c.sub != nil && c.sub.parallel {
		// Its parent is not waiting in t.Run: it exits like a goroutine.
		e.releaseSlot(c)
		e.touch(kidsKey(p.sub)) // p may wait for its parallel subtests
		if wasCur || e.cur == nil {
			e.cur = nil
			e.decide(nil)
		}
		return
	}
	p.status = gRunning
	if e.race.on {
		p.vc.join(c.vc)
	}
	if e.solo.Load() {
		e.soloHandOver() // the parent goes on alone
	}
	if wasCur || e.cur == nil {
		e.cur = p
	} else {
		// c blocked or was detached while another goroutine ran: p waits its turn.
		p.status = gParked
		p.p = pending{op: strategy.OpResume, site: p.lastSite}
		e.parked(p)
	}
}

// TCleanup is t.Cleanup(f), also through a testing.TB. Under control the
// function is kept by the engine and run, still under control, by the test's
// goroutine when its function (and its parallel subtests) have returned:
// package testing would run it after the run is over, when the goroutines
// it stops or waits for are gone.
func TCleanup(site string, tb testing.TB, f func()) {
	e := eng
	_, md := e.enter()
	switch md {
	case modePlain:
		tb.Cleanup(f)
		return
	case modeSkip:
		return
	}
	owner := e.testOwner(tb)
	if owner == nil {
		e.mu.Unlock()
		tb.Cleanup(f)
		return
	}
	owner.cleanups = append(owner.cleanups, f)
	e.mu.Unlock()
}

// TCleanupVia is x.Cleanup(f) through an interface of the program's own
// (miniredis' Tester): a *testing.T behind it gets TCleanup, so that the
// function runs at the end of the run, not after it (a server it closes
// would keep the run waiting for its goroutines); anything else its own
// Cleanup.
func TCleanupVia(site string, x interface{ Cleanup(func()) }, f func()) {
	if tb, ok := x.(testing.TB); ok {
		TCleanup(site, tb, f)
		return
	}
	x.Cleanup(f)
}

// TParallelVia is x.Parallel() through an interface (go-internal's
// testscript.T): a *testing.T, or a wrapper whose Parallel is the one of a
// *testing.T it embeds, goes through TParallel; the real t.Parallel would
// wait for the end of a parent test that the model holds, for ever.
func TParallelVia(site string, x interface{ Parallel() }) {
	if t := embeddedT(x, "Parallel"); t != nil {
		TParallel(site, t)
		return
	}
	x.Parallel()
}

// embeddedT is the *testing.T that x is, or whose method x's method is,
// promoted from a *testing.T it embeds (at any depth); nil otherwise.
func embeddedT(x any, method string) *testing.T {
	if t, ok := x.(*testing.T); ok {
		return t
	}
	v := reflect.ValueOf(x)
	if !v.IsValid() || !promoted(v.Type(), method) {
		return nil
	}
	return findT(v)
}

var testingTType = reflect.TypeOf((*testing.T)(nil))

// promoted reports whether t's method name comes from an embedded field:
// the compiler's wrapper has no source file, and a type that declares the
// method runs its own code. For a pointer type the type it points to is
// looked at too, since it may declare the method with a value receiver
// (the pointer's method is then a wrapper as well).
func promoted(t reflect.Type, name string) bool {
	if !wrapper(t, name) {
		return false
	}
	if t.Kind() == reflect.Pointer {
		if _, ok := t.Elem().MethodByName(name); ok {
			return wrapper(t.Elem(), name)
		}
	}
	return true
}

// wrapper reports whether t has the method name and it is a wrapper the
// compiler generated.
func wrapper(t reflect.Type, name string) bool {
	m, ok := t.MethodByName(name)
	if !ok {
		return false
	}
	f := runtime.FuncForPC(m.Func.Pointer())
	if f == nil {
		return false
	}
	file, _ := f.FileLine(f.Entry())
	return file == "<autogenerated>"
}

// findT is the shallowest *testing.T embedded in v (a struct or pointers
// to one), or nil.
func findT(v reflect.Value) *testing.T {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	st := v.Type()
	for i := 0; i < st.NumField(); i++ {
		if f := st.Field(i); f.Anonymous && f.Type == testingTType {
			if fv := v.Field(i); !fv.IsNil() {
				return (*testing.T)(fv.UnsafePointer())
			}
			return nil
		}
	}
	for i := 0; i < st.NumField(); i++ {
		if f := st.Field(i); f.Anonymous {
			if t := findT(v.Field(i)); t != nil {
				return t
			}
		}
	}
	return nil
}

// TRunVia is x.Run(name, f) through an interface that a *testing.T may
// satisfy (testify's suite runs its methods through one): a T's subtest
// runs under control, as with t.Run; any other runner is called as it is.
func TRunVia(site string, x interface {
	Run(string, func(*testing.T)) bool
}, name string, f func(*testing.T)) bool {
	if t, ok := x.(*testing.T); ok {
		return TRun(site, t, name, f)
	}
	return x.Run(name, f)
}

// testOwner is the controlled goroutine running tb's (sub)test, or nil.
// e.mu is held.
func (e *engine) testOwner(tb testing.TB) *gstate {
	for _, x := range e.gs {
		if x.t != nil && x.status != gDone && testing.TB(x.t) == tb {
			return x
		}
	}
	return nil
}

// runCleanups cancels g's t.Context(), then runs the functions g's test
// registered with t.Cleanup, last first, on g's goroutine under control.
// Once the run is over they are dropped.
func (e *engine) runCleanups(g *gstate) {
	e.mu.Lock()
	if c := g.tctx; c != nil && !g.abort && !e.finished {
		e.leaveFree(g) // Done is closed without a key point
		clk := e.releaseClock(g)
		e.mu.Unlock()
		c.cancel(context.Canceled, nil, clk)
	} else {
		e.mu.Unlock()
	}
	for {
		e.mu.Lock()
		n := len(g.cleanups)
		if n == 0 || g.abort || e.finished {
			g.cleanups = nil
			e.mu.Unlock()
			return
		}
		f := g.cleanups[n-1]
		g.cleanups = g.cleanups[:n-1]
		e.mu.Unlock()
		f()
	}
}
