//go:build go1.21

package rt

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/period-dev/period/strategy"
)

// Virtual time. Inside a controlled run, time.Now, sleeps, timers, tickers
// and context deadlines use a clock that is a function of the schedule, so
// that every duration the program can measure replays exactly. It passes as
// a real clock does, only faster where nothing can happen but waiting:
//
//   - every step adds stepDrift, and every time.Now a little more
//     (nowDrift), so time moves while goroutines run: a deadline loop that
//     reads the clock ends, a timer falls due while workers are busy and
//     fires at the next decision;
//   - when every goroutine is blocked, the clock jumps to the earliest
//     wake-up (a test that sleeps an hour finishes at once);
//   - when goroutines only poll (yield, select with default, fail a
//     TryLock) pollJump times with no effect between, they wait as much as
//     blocked ones do: the clock jumps too, so a busy-polling goroutine
//     cannot freeze it; atomic loads in a row make time pass faster, up to
//     ten times (loadDrift), so a spin on a flag ends too.
//
// Inside a synctest bubble time moves only when everyone is blocked, as
// synctest makes it.

// timeBase is the instant the current run's virtual clock started from
// (restartClock). e.mu guards it.
var timeBase = time.Now()

// synctestEpoch is where a synctest bubble's clock starts, as synctest's does.
var synctestEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// restartClock sets where the next run's virtual clock starts: at the real
// present, as a real run would start, and never before the previous run's
// last instant. So an instant read before exploration (in init, TestMain, a
// package-level fixture of the tests) or by an earlier schedule is never in
// the run's future: a deadline set at init is not 26 years ahead, a
// timestamp kept across runs is not later than the next run's now. Only
// absolute instants differ between processes; durations do not. A replay
// starts where its record did (replayBase), so that randomness seeded with
// time.Now().UnixNano() repeats (lestrrat-go/backoff's jitter): instants
// read outside the run (init, file times) may then be ahead of it. e.mu is
// held.
func (e *engine) restartClock() {
	if !e.replayBase.IsZero() {
		timeBase = e.replayBase
		return
	}
	base := time.Now()
	if end := e.now(); base.Before(end) {
		base = end
	}
	timeBase = base
}

// timerFiring is set while the engine fires due timers (with e.mu held).
var timerFiring atomic.Bool

type vtimer struct {
	when    int64
	period  int64
	ch      chan time.Time
	f       func()
	ctx     *vctx
	expire  func() // a connection's deadline (realio.go): run at once, under e.mu
	active  bool
	seq     int
	creator *gstate
	vc      vc // race detection: the creator's clock when it set the timer (creation, Reset)
}

// futile reports a timer whose firing would change nothing: its channel
// already holds an undelivered tick (a ticker nobody reads).
func (t *vtimer) futile() bool { return t.ch != nil && len(t.ch) == cap(t.ch) }

type vclock struct {
	now  int64 // without e.drift (vnow)
	due  int64 // no wake-up (timer or sleeper) is earlier: a lower bound, -1 if none
	seq  int
	q    timerQueue
	byT  timerTable[time.Timer]
	byTk timerTable[time.Ticker]
}

func (c *vclock) reset() {
	*c = vclock{due: -1, byT: newTimerTable[time.Timer](), byTk: newTimerTable[time.Ticker]()}
	c.q.reset()
}

func (c *vclock) add(t *vtimer) {
	c.seq++
	t.seq = c.seq
	t.active = true
	c.q.push(t)
	c.lower(t.when)
}

// minCompact is the least queue length at which stopped timers are dropped.
const minCompact = 256

// lower records a wake-up at when.
func (c *vclock) lower(when int64) {
	if c.due < 0 || when < c.due {
		c.due = when
	}
}

// stepDrift is the virtual time a step takes: about what a key point costs
// natively under -race (a channel operation, a lock, an instrumented
// access), so that a timeout a test sets against work fires no earlier than
// on a real machine running the test with -race, while a test that sleeps
// to let busy workers run ends after a bounded number of steps.
const stepDrift = int64(100 * time.Nanosecond)

// pollJump is how many yields, selects that took their default and failed
// TryLocks may come with no effect between them (e.effect: an operation
// that is not a poll, an atomic write, a select case, a TryLock that took
// the lock) before the clock jumps to the next wake-up, as it does when
// everyone is blocked: these operations say "I am waiting". Loads and
// reads do not (a goroutine may read a lot of shared data, racing a
// timeout); atomic loads in a row only make time pass faster, up to ten
// times (loadDrift), so a spin on a flag ends too.
const pollJump = 256

// loadDrift is the extra time the k-th atomic load in a row with no effect
// takes: stepDrift*k/1024, up to 9*stepDrift from the 9,216th on. A spin on
// a flag that a sleeper sets waits about 14,000 loads for 10 ms and a
// million for a second; a computation that reads atomics without writing
// spends about 6 ms on ten thousand loads and 0.1 s on a hundred thousand.
// The cap keeps long read-only work from outrunning a timeout set against
// it by far more than -race would. e.mu is held.
func (e *engine) loadDrift() {
	e.loads++
	e.drift += stepDrift * int64(min(e.loads, loadDriftCap)) / 1024
}

const loadDriftCap = 9 * 1024

// wakeSlack is how late a sleep or a timer wakes after its duration, as on
// every real machine: a test that sleeps d between two events and then
// checks that more than d passed between them holds, however the goroutines
// around the events were ordered. Go 1.26 on Linux wakes a sleep of 1 ms
// 70-180 µs late and one of 2 to 100 ms 140-740 µs late (30 sleeps each,
// an idle 2-core machine); a test that counts 20 ms audio frames across a
// 60 ms sleep needs more than 125 µs (emiago/diago's
// TestMonitorPCMReaderWriter: one silent frame where two are due at 50 µs).
// Inside a synctest bubble time is exact.
const wakeSlack = int64(150 * time.Microsecond)

// wakeAt is when a sleep or timer of d started now wakes. e.mu is held.
func (e *engine) wakeAt(d time.Duration) int64 {
	if e.bubble {
		return later(e.vnow(), int64(d))
	}
	return later(later(e.vnow(), int64(d)), wakeSlack)
}

// never is the instant of a wake-up that never comes: a timer or sleep so
// long that its instant does not fit in an int64, as Go's runtime caps it
// (a scheduler's "no job" timer of math.MaxInt64 is common). The clock
// never jumps to it.
const never = int64(math.MaxInt64)

// later is at+d, capped at never instead of wrapping around to the past
// (a wrapped instant fired at once, or hid every other wake-up).
func later(at, d int64) int64 {
	if d > 0 && at > never-d {
		return never
	}
	return at + d
}

// early lets a wake-up that g sets d ahead (at when) come at once: the
// strategy chooses between "on time" (0: the clock reaches it as it passes)
// and "early" (1: the clock jumps to it at the next decision, as if the other
// goroutines had been slower than d). So the schedules explored include the
// ones where the timeout, the tick or the end of a sleep wins the race
// against the work, which a clock that only passes with steps rarely gives
// (a timer of 1 µs needs ten steps, one of 1 ms ten thousand). Only short
// wake-ups are offered (cfg.EarlyTimers): a machine is slower than the
// program expects by microseconds or milliseconds, not by the seconds of a
// test's own timeout, and a timeout that fires before work that takes no
// time is a false failure. Not in synctest bubbles (their time is exact),
// nor in free mode. e.mu is held.
func (e *engine) early(g *gstate, d time.Duration, when int64) {
	if d > e.cfg.EarlyTimers || e.cfg.EarlyTimers <= 0 || e.cfg.TimersWhenBlocked || e.bubble || e.free || g == nil || g != e.cur || g.helper {
		return
	}
	if e.choose(g, 2) == 1 && when > e.jumpTo {
		e.jumpTo = when
	}
}

// jumpEarly moves the clock to the wake-up chosen early in the last step
// (early) and fires what is due by then. It reports whether anything fired.
// e.mu is held.
func (e *engine) jumpEarly() bool {
	at := e.jumpTo
	if at == 0 {
		return false
	}
	e.jumpTo = 0
	return at > e.vnow() && e.clock.passTo(e, at)
}

// vnow is the virtual instant, drift included. e.mu is held.
func (e *engine) vnow() int64 { return e.clock.now + e.drift }

// nowDrift is the time one time.Now by the current goroutine adds: a
// reading costs time on a real machine, and a loop that only reads the
// clock (a deadline loop without key points) must see it pass. Readings
// in a row with no effect between them (e.effect) add a little more each
// (100 ns, then 100 ns more every 16 readings, up to 1 µs), so a deadline
// loop of 20 ms ends after about 20,000 readings (no key point among them:
// fast in real time), while a hundred thousand readings in some loop add at
// most 0.1 s. e.mu is held.
func (e *engine) nowDrift() {
	if e.nowSince != e.lastEffect || e.nowStreak == 0 {
		e.nowSince, e.nowStreak = e.lastEffect, 0
	}
	e.nowStreak++
	e.drift += stepDrift * int64(1+min(e.nowStreak/16, 9))
}

// accessesPerNs is how many memory accesses without a key point (workDone)
// take a nanosecond of virtual time: work moves the clock too, so that a
// computation racing its own deadline (a diff that gives up after 200 ms)
// ends as it does on a real machine instead of computing for ever. The
// rate keeps the clock behind a real machine: go-diff's bisect makes about
// one access per ns natively (152.9 M accesses counted in a diff that takes
// 145 ms under go test, Go 1.26 on the 2-core EPYC), so a timeout set
// against work fires later than it would natively, never earlier; only
// accesses of code Period instruments count (the standard library's work
// adds nothing).
const accessesPerNs = 4

// workDrift adds the virtual time of the work done since the last call.
// e.mu is held.
func (e *engine) workDrift() {
	if d := e.workDone() - e.workAt; d >= accessesPerNs {
		e.drift += int64(d / accessesPerNs)
		e.workAt += d - d%accessesPerNs
	}
}

// dueNow fires what the drifted clock has reached: the clock moves on to
// vnow (drift folded in) and the timers and sleepers due by then wake. It
// reports whether anything woke. e.mu is held.
func (e *engine) dueNow() bool {
	if e.bubble || e.cfg.TimersWhenBlocked || e.clock.due < 0 || e.vnow() < e.clock.due {
		return false
	}
	return e.clock.passTo(e, e.vnow())
}

// pollWait is the jump of a run that only polls: to the next wake-up, if
// there is one. e.mu is held.
func (e *engine) pollWait() bool {
	if e.bubble || e.pollYields < pollJump || e.pollYields%pollJump != 0 {
		return false
	}
	next := e.clock.nextDue(e, false)
	if next < 0 || next == never {
		return false
	}
	return e.clock.passTo(e, max(next, e.vnow()))
}

// nextDue is the earliest wake-up of a blocked sleeper or an active timer
// (-1: none). A futile timer (a ticker whose channel still holds a tick)
// counts only for the drifted clock (futile true): firing it as time passes
// drops the tick and sets the next, as a real ticker does, but a jump of the
// clock to it would change nothing.
func (c *vclock) nextDue(e *engine, futile bool) int64 {
	next := e.nextWake()
	var t int64
	if futile {
		t = c.q.firstWhere(anyTimer)
	} else {
		t = c.q.firstWhere(usefulTimer)
	}
	if verifyReady {
		ok := anyTimer
		if !futile {
			ok = usefulTimer
		}
		if full := c.q.scanWhere(ok); full != t {
			panic(fmt.Sprintf("period: next timer %d, full pass %d", t, full))
		}
	}
	if t >= 0 && (next < 0 || t < next) {
		next = t
	}
	return next
}

func anyTimer(*vtimer) bool      { return true }
func usefulTimer(t *vtimer) bool { return !t.futile() }

// passTo moves the clock to at (drift folded in) and fires what is due by
// then; c.due becomes exact. It reports whether anything was due. e.mu is
// held.
func (c *vclock) passTo(e *engine, at int64) bool {
	next := c.nextDue(e, true)
	c.now = max(c.now, at)
	e.drift = 0
	fired := next >= 0 && next <= c.now
	if fired {
		e.clockMoved()
		timerFiring.Store(true)
		c.fire(e)
		timerFiring.Store(false)
	}
	c.due = c.nextDue(e, true)
	return fired
}

// advance moves the clock to the next wake-up (a sleeping goroutine or a
// timer) and fires what is due. It reports whether anything can happen.
func (c *vclock) advance(e *engine) bool {
	next := e.nextWake() // the sleepers: nothing is enabled, so all of them are blocked
	if verifyReady {
		full := int64(-1)
		for _, g := range e.gs {
			if g.status == gParked && g.p.op == strategy.OpSleep && (full < 0 || g.p.wakeAt < full) {
				full = g.p.wakeAt
			}
		}
		if full != next {
			panic(fmt.Sprintf("period: next wake-up %d, full pass %d", next, full))
		}
	}
	if next = c.nextDue(e, false); next < 0 || next == never {
		return false
	}
	return c.passTo(e, max(next, e.vnow()))
}

func (c *vclock) fire(e *engine) {
	due := c.q.popDue(c.now, nil) // in (when, seq) order
	for _, t := range due {
		now := e.now()
		switch {
		case t.ch != nil:
			select {
			case t.ch <- now:
				e.touch(recvKey(chanOf(t.ch)))
				e.timerSent(t.ch, t.vc)
			default: // a ticker drops ticks nobody took
			}
		case t.f != nil:
			parent := t.creator
			if parent == nil && len(e.gs) > 0 {
				parent = e.gs[0]
			}
			e.timerStart(e.spawn(parent, "time.AfterFunc", t.f, 0), t.vc)
		case t.ctx != nil:
			t.ctx.cancel(context.DeadlineExceeded, t.ctx.cause, t.vc)
			// Code outside control (net/http's transport) may wait on its
			// Done: the clock waits again (a new outsideGrace) for what
			// that wakes, as it does after a connection's deadline,
			// instead of jumping at once to the next timer, which the
			// woken request would have beaten (minio-go's SSO test saw
			// its 50 ms deadline end the request only at its 30 s guard).
			e.graceFrom = time.Time{}
		case t.expire != nil:
			t.expire()
		}
		if t.period > 0 {
			// The next tick after now, as Go's runtime sets it: ticks
			// missed while the clock jumped past them are dropped.
			t.when = later(t.when, t.period)
			if t.when <= c.now {
				t.when = later(t.when, ((c.now-t.when)/t.period+1)*t.period)
			}
			c.q.push(t)
		} else {
			t.active = false
			t.vc = vc{} // a Reset sets it again; a dead timer keeps no clock
		}
	}
}

// clockNow returns the current instant, virtual inside a controlled run.
func clockNow() time.Time {
	e := eng
	if !e.active.Load() {
		return time.Now()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.clockRead = true
	if !e.bubble && !e.free {
		if g := e.cur; g != nil && g.goid == goid() || e.solo.Load() && e.soloGoid.Load() == goid() {
			// The current goroutine's readings are part of the
			// schedule; so are the test goroutine's alone in its run
			// on the path without bookkeeping, even once the watchdog
			// has let it compute detached (no key point for seconds).
			e.nowDrift()
			e.workDrift()
		}
	}
	e.catchUp() // while a goroutine waits for real, time passes as it does
	return e.now()
}

// now is the instant a controlled goroutine observes: the virtual clock
// with its drift (vnow), so that Now() after Sleep(d) is strictly later
// than start+d and two readings separated by a key point differ, as on
// every real machine. Steps and readings are part of the schedule, so
// replays read the same instants. e.mu is held.
//
// Inside a synctest bubble time is exact, as synctest makes it: no drift.
func (e *engine) now() time.Time {
	if e.bubble {
		return synctestEpoch.Add(time.Duration(e.clock.now - e.bubbleAt))
	}
	return timeBase.Add(time.Duration(e.vnow()))
}

// enterBubble makes the clock exact (synctest.Test), keeping it monotonic:
// the drift so far becomes part of the clock. e.mu is held.
// Inside, instants count from synctestEpoch, as in a real bubble.
func (e *engine) enterBubble() {
	e.clock.now += e.drift
	e.drift = 0
	e.bubble = true
	e.bubbleAt = e.clock.now
	e.clockMoved()
}

// leaveBubble lets the clock drift again from here, and instants count from
// the run's start again. e.mu is held.
func (e *engine) leaveBubble() {
	e.bubble = false
	e.workAt = e.workDone() // the bubble's work took no time (exact clock)
}

// Now is time.Now().
func Now() time.Time { return clockNow() }

// Since is time.Since(t).
func Since(t time.Time) time.Duration { return clockNow().Sub(t) }

// Until is time.Until(t).
func Until(t time.Time) time.Duration { return t.Sub(clockNow()) }

// Sleep is time.Sleep(d): the goroutine blocks until the clock reaches now+d.
func Sleep(site string, d time.Duration) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		// Outside control (an HTTP handler of the test's): a real sleep
		// with a known end, which the clock waits for (outsideGrace).
		e.outsideSleeping.Add(1)
		bgSleep(d)
		e.outsideSleeping.Add(-1)
		return
	case modeSkip:
		return
	}
	if d < 0 {
		d = 0
	}
	g.p = pending{op: strategy.OpSleep, site: site, wakeAt: e.wakeAt(d)}
	e.clock.lower(g.p.wakeAt)
	e.early(g, d, g.p.wakeAt)
	e.point(g)
	e.hookDone(g)
}

// newTimer registers a virtual timer when the caller is controlled.
func newTimer(d time.Duration, period time.Duration, ch chan time.Time, f func()) (*vtimer, bool) {
	e := eng
	g, md := e.enter()
	if md != modeControl {
		return nil, false
	}
	defer e.mu.Unlock()
	if d < 0 {
		d = 0
	}
	t := &vtimer{when: e.wakeAt(d), period: int64(period), ch: ch, f: f, creator: g, vc: e.releaseClock(g)}
	e.clock.add(t)
	e.early(g, d, t.when)
	return t, true
}

// After is time.After(d).
func After(site string, d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	if _, ok := newTimer(d, 0, ch, nil); !ok {
		return time.After(d)
	}
	return ch
}

// Tick is time.Tick(d).
func Tick(site string, d time.Duration) <-chan time.Time {
	if d <= 0 {
		return nil
	}
	ch := make(chan time.Time, 1)
	if _, ok := newTimer(d, d, ch, nil); !ok {
		c := time.Tick(d)
		bgTickerArmed(c, d)
		return c
	}
	return ch
}

// NewTimer is time.NewTimer(d). Its channel is fed by the virtual clock;
// Stop and Reset must go through TimerStop and TimerReset.
func NewTimer(site string, d time.Duration) *time.Timer {
	ch := make(chan time.Time, 1)
	vt, ok := newTimer(d, 0, ch, nil)
	if !ok {
		return time.NewTimer(d)
	}
	eng.mu.Lock()
	t := eng.clock.byT.make(vt)
	eng.mu.Unlock()
	t.C = ch
	return t
}

// AfterFunc is time.AfterFunc(d, f): f runs in its own controlled goroutine.
func AfterFunc(site string, d time.Duration, f func()) *time.Timer {
	vt, ok := newTimer(d, 0, nil, f)
	if !ok {
		t := bgAfterFunc(d, f)
		armedOutside(t, time.Now().Add(d))
		return t
	}
	eng.mu.Lock()
	t := eng.clock.byT.make(vt)
	eng.mu.Unlock()
	return t
}

// NewTicker is time.NewTicker(d).
func NewTicker(site string, d time.Duration) *time.Ticker {
	if d <= 0 {
		panic("non-positive interval for NewTicker")
	}
	ch := make(chan time.Time, 1)
	vt, ok := newTimer(d, d, ch, nil)
	if !ok {
		t := time.NewTicker(d)
		bgTickerArmed(t, d)
		return t
	}
	eng.mu.Lock()
	t := eng.clock.byTk.make(vt)
	eng.mu.Unlock()
	t.C = ch
	return t
}

// stopVirtual stops vt. It reports whether the timer was pending, as Stop
// and Reset do under the program's timer semantics: with Go 1.23's
// (synchronous timer channels) a value not received yet is taken back and
// counts as pending, so the idiom "if !t.Stop() { <-t.C }" never blocks;
// with the earlier ones (a module whose go line is older than 1.23, or
// GODEBUG=asynctimerchan=1) the value stays in the channel and Stop
// reports false. Draining while reporting false blocked that idiom for
// ever (syncthing's event logger: a false deadlock in all its tests).
func (e *engine) stopVirtual(vt *vtimer) bool {
	was := vt.active
	vt.active = false
	vt.vc = vc{} // a Reset sets it again: a stopped timer keeps no clock
	if vt.ch != nil && syncTimerChans {
		select {
		case <-vt.ch:
			e.timerDrained(vt.ch)
			was = true
		default:
		}
	}
	return was
}

// TimerChanLen is len(t.C) for a time.Timer or time.Ticker t: 0 with Go
// 1.23's synchronous timer channels, whose len and cap the runtime reports
// as 0 (a virtual timer feeds a one-slot buffer); the values waiting
// otherwise.
func TimerChanLen(c <-chan time.Time) int {
	if syncTimerChans {
		return 0
	}
	return len(c)
}

// TimerChanCap is cap(t.C), as TimerChanLen is len(t.C).
func TimerChanCap(c <-chan time.Time) int {
	if syncTimerChans {
		return 0
	}
	return cap(c)
}

// syncTimerChans: the program's timer channels are synchronous (Go 1.23
// semantics, which the main module's go line and GODEBUG decide for the
// binary): they have no buffer then.
var syncTimerChans = func() bool {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	return cap(t.C) == 0
}()

// Timers and tickers Period made live as long as the program keeps them: a
// package variable or a sync.Pool (yamux pools its write timers) hands one
// made in an earlier run to a later one, or to code outside any run. Their
// runtime part was never set up, so the real Stop and Reset would panic
// ("Stop called on uninitialized Timer"). A controlled goroutine of an
// active run gets them back as virtual timers of its run (adoptTimer);
// elsewhere, Stop drains them and Reset fires them in real time.

// madeChan returns the channel of a timer or ticker Period made, c its C,
// or nil for a real one (init: the runtime's flag, read by reflection).
func madeChan(c <-chan time.Time, v reflect.Value, init string) chan time.Time {
	if c == nil {
		return nil
	}
	if f := v.Elem().FieldByName(init); !f.IsValid() || f.Kind() != reflect.Bool || f.Bool() {
		return nil // a real one (or a layout this code does not know)
	}
	return *(*chan time.Time)(unsafe.Pointer(&c)) // Period made it bidirectional
}

// adoptTimer registers ch, the channel of a timer or ticker an earlier run
// made, as a stopped virtual timer of this run; the caller resets it.
// e.mu is held.
func (e *engine) adoptTimer(ch chan time.Time) *vtimer {
	return &vtimer{ch: ch, creator: e.callerG()}
}

// madeTimer is the real timer standing, outside runs, for the channel of a
// timer an earlier run made (resetMade); gen retires a ticker's re-arming
// once it is stopped or reset.
type madeTimer struct {
	mu  sync.Mutex
	t   *time.Timer
	gen int
}

var madeTimers sync.Map // chan time.Time -> *madeTimer

// stopMade is Stop of a timer an earlier run made, outside a run: it stops
// what resetMade started and drops a value the channel holds (Go 1.23
// semantics); it reports whether the timer was running.
func stopMade(ch chan time.Time) bool {
	was := false
	if v, ok := madeTimers.Load(ch); ok {
		m := v.(*madeTimer)
		m.mu.Lock()
		m.gen++
		if m.t != nil {
			was = m.t.Stop()
		}
		m.mu.Unlock()
	}
	select {
	case <-ch:
	default:
	}
	return was
}

// resetMade is Reset of a timer an earlier run made, outside a run: it
// fires once (each period for a ticker) in real time, as time.Timer would,
// until the next Stop or Reset. It reports whether the timer was running.
func resetMade(ch chan time.Time, d, period time.Duration) bool {
	was := stopMade(ch)
	v, _ := madeTimers.LoadOrStore(ch, &madeTimer{})
	m := v.(*madeTimer)
	m.mu.Lock()
	defer m.mu.Unlock()
	gen := m.gen
	var tick func()
	tick = func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.gen != gen {
			return // stopped or reset since
		}
		select {
		case ch <- time.Now():
		default:
		}
		if period > 0 {
			m.t = time.AfterFunc(period, tick)
		}
	}
	m.t = time.AfterFunc(d, tick)
	return was
}

// TimerStop is t.Stop().
func TimerStop(site string, t *time.Timer) bool {
	e := eng
	e.mu.Lock()
	vt := e.clock.byT.get(t)
	if vt == nil || !e.active.Load() {
		e.mu.Unlock()
		if ch := madeChan(t.C, reflect.ValueOf(t), "initTimer"); ch != nil {
			return stopMade(ch)
		}
		stoppedOutside(t)
		bgAfterStopped(t)
		return t.Stop()
	}
	e.leaveFree(e.callerG()) // the timer channel changes without a key point
	defer e.mu.Unlock()
	return e.stopVirtual(vt)
}

// TimerReset is t.Reset(d).
func TimerReset(site string, t *time.Timer, d time.Duration) bool {
	e := eng
	e.mu.Lock()
	vt := e.clock.byT.get(t)
	if vt == nil {
		if ch := madeChan(t.C, reflect.ValueOf(t), "initTimer"); ch != nil {
			if !e.active.Load() || e.callerG() == nil {
				e.mu.Unlock()
				return resetMade(ch, d, 0)
			}
			vt = e.adoptTimer(ch)
			e.clock.byT.adopt(t, vt)
		}
	}
	if vt == nil || !e.active.Load() {
		e.mu.Unlock()
		if t.C == nil { // a real AfterFunc's: its function runs again at d
			armedOutside(t, time.Now().Add(d))
			bgAfterReset(t, d)
		}
		return t.Reset(d)
	}
	e.leaveFree(e.callerG()) // the timer channel changes without a key point
	defer e.mu.Unlock()
	was := e.stopVirtual(vt)
	g := e.callerG()
	vt.when = e.wakeAt(d)
	vt.vc = e.releaseClock(g)
	e.clock.add(vt)
	e.early(g, d, vt.when)
	return was
}

// TickerStop is t.Stop().
func TickerStop(site string, t *time.Ticker) {
	e := eng
	e.mu.Lock()
	vt := e.clock.byTk.get(t)
	if vt == nil || !e.active.Load() {
		e.mu.Unlock()
		if ch := madeChan(t.C, reflect.ValueOf(t), "initTicker"); ch != nil {
			stopMade(ch)
			return
		}
		bgTickerStopped(t)
		t.Stop()
		return
	}
	e.leaveFree(e.callerG()) // the timer channel changes without a key point
	defer e.mu.Unlock()
	e.stopVirtual(vt)
}

// TickerReset is t.Reset(d).
func TickerReset(site string, t *time.Ticker, d time.Duration) {
	e := eng
	e.mu.Lock()
	vt := e.clock.byTk.get(t)
	if vt == nil {
		if ch := madeChan(t.C, reflect.ValueOf(t), "initTicker"); ch != nil {
			if !e.active.Load() || e.callerG() == nil {
				e.mu.Unlock()
				if d <= 0 {
					panic("non-positive interval for Ticker.Reset")
				}
				resetMade(ch, d, d)
				return
			}
			vt = e.adoptTimer(ch)
			e.clock.byTk.adopt(t, vt)
		}
	}
	if vt == nil || !e.active.Load() {
		e.mu.Unlock()
		t.Reset(d)
		bgTickerArmed(t, d)
		return
	}
	e.leaveFree(e.callerG()) // the timer channel changes without a key point
	defer e.mu.Unlock()
	e.stopVirtual(vt)
	g := e.callerG()
	vt.when = e.wakeAt(d)
	vt.period = int64(d)
	vt.vc = e.releaseClock(g)
	e.clock.add(vt)
	e.early(g, d, vt.when)
}

// vctx is a context with a virtual deadline (or none: WithCancel). It does
// not embed a cancelCtx, so the context package propagates cancellation to
// its children through AfterFunc (synchronously, no goroutine). Its
// cancellation is a happens-before edge for the race detector: from the
// cancel call (or the deadline timer's creation) to whoever sees Done closed
// or Err non-nil.
type vctx struct {
	parent     context.Context
	deadline   time.Time
	noDeadline bool
	cause      error
	mu         sync.Mutex
	done       chan struct{}
	err        error
	errCause   error
	causeCtx   context.Context         // a standard context canceled with c's cause, for context.Cause
	causeStop  context.CancelCauseFunc // cancels causeCtx
	cc         *ctxClock               // race detection: the canceller's clock (also in ctxDoneClocks)
	after      map[int]func()
	nextID     int
	timer      *vtimer
}

// Deadline is the virtual deadline, or, asked by the standard library
// (net.Dialer, net/http), the real instant as far from now: the standard
// library sets sockets' deadlines and its own timers from it on the real
// clock, and virtual time runs behind real time while a run computes (a
// memcache client's 500 ms dial timed out at once, bradfitz/gomemcache).
func (c *vctx) Deadline() (time.Time, bool) {
	d, ok, virtual := c.deadlineOf()
	if ok && virtual && stdCaller() {
		d = realInstant(d)
	}
	return d, ok
}

// deadlineOf is c's deadline, and whether it is an instant of the virtual
// clock (a virtual context's, not a standard one's above it).
func (c *vctx) deadlineOf() (time.Time, bool, bool) {
	if c.noDeadline {
		if p, ok := c.parent.(*vctx); ok {
			return p.deadlineOf()
		}
		d, ok := c.parent.Deadline()
		return d, ok, false
	}
	return c.deadline, true, true
}

// stdCaller tells whether the code that called into rt (the first frame
// outside rt) is the standard library's.
func stdCaller() bool {
	var pcs [8]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !isPeriodFrame(f.Function) {
			return goroot != "" && strings.HasPrefix(filepath.ToSlash(f.File), goroot)
		}
		if !more {
			return false
		}
	}
}

// realInstant maps the virtual instant t to the real one as far from now.
func realInstant(t time.Time) time.Time {
	e := eng
	if !e.active.Load() {
		return t
	}
	e.mu.Lock()
	now := e.now()
	e.mu.Unlock()
	return time.Now().Add(t.Sub(now))
}

// Done makes c's channel on first call, as the context package does: two
// contexts made alike and never asked are reflect.DeepEqual, as two of the
// context package's are (gomock's argument matchers compare a context the
// test made with the one the code made; tus/tusd).
func (c *vctx) Done() <-chan struct{} {
	c.mu.Lock()
	d := c.done
	made := d == nil
	if made {
		d = make(chan struct{})
		if c.err != nil {
			close(d)
		}
		c.done = d
	}
	c.mu.Unlock()
	if made {
		ctxDoneClocks.register(c, d)
	}
	return d
}
func (c *vctx) Value(k any) any {
	if k == vctxKey {
		return c
	}
	if k == causeKey && causeKey != nil {
		// context.Cause(c) looks for a *cancelCtx under the context
		// package's private key: hand it one that carries c's cause (none
		// before c is canceled: Cause then asks Err, nil).
		c.mu.Lock()
		cc := c.causeCtx
		c.mu.Unlock()
		if cc == nil {
			return nil
		}
		return cc.Value(k)
	}
	return c.parent.Value(k)
}

// causeKey is the key under which context.Cause looks up a context's
// *cancelCtx, caught by a Context that records what it is asked for (its
// Err is non-nil: Cause asks Err first).
var causeKey = func() any {
	var k any
	context.Cause(keySpy{&k})
	return k
}()

type keySpy struct{ k *any }

func (keySpy) Deadline() (time.Time, bool) { return time.Time{}, false }
func (keySpy) Done() <-chan struct{}       { return nil }
func (keySpy) Err() error                  { return context.Canceled }
func (s keySpy) Value(k any) any {
	if *s.k == nil {
		*s.k = k
	}
	return nil
}

func newVctx(parent context.Context) *vctx {
	// The Done channel and the cause's context are made when needed (Done,
	// cancel).
	return &vctx{parent: parent, after: map[int]func(){}, cc: new(ctxClock)}
}
func (c *vctx) Err() error {
	c.mu.Lock()
	err := c.err
	c.mu.Unlock()
	var clk vc
	if err != nil {
		clk = c.cc.get() // set with err, under c.mu (cancel)
	}
	if err != nil && !clk.empty() && !timerFiring.Load() {
		// (While timers fire, e.mu is held and no user code runs but the
		// cancellation callbacks, which call Err: nobody to acquire for.)
		eng.acquireClock(clk)
	}
	return err
}

// clock is the canceller's clock once c is canceled.
func (c *vctx) clock() vc { return c.cc.get() }

// AfterFunc registers f to run when c is canceled (the context package's
// afterFuncer interface).
func (c *vctx) AfterFunc(f func()) (stop func() bool) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		f()
		return func() bool { return false }
	}
	id := c.nextID
	c.nextID++
	c.after[id] = f
	c.mu.Unlock()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.after[id]
		delete(c.after, id)
		return ok
	}
}

func (c *vctx) cancel(err, cause error, clk vc) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	c.errCause = cause
	c.cc.set(clk)
	if cause == nil {
		cause = err
	}
	if c.causeCtx == nil {
		c.causeCtx, c.causeStop = context.WithCancelCause(context.Background())
	}
	c.causeStop(cause)
	if c.done != nil {
		close(c.done) // else Done makes it closed
		// Its waiters are looked at before the children's (their
		// cancels run below): a select blocked on this Done and a
		// child's is completed by this one, as Go closes a parent's
		// Done before its children's (commitCase).
		eng.touchAsync(chanOf(c.done))
	}
	var fs []func()
	for i := 0; i < c.nextID; i++ {
		if f, ok := c.after[i]; ok {
			fs = append(fs, f)
		}
	}
	c.after = nil
	c.mu.Unlock()
	for _, f := range fs {
		f()
	}
	// Done is closed, and so may be channels the callbacks closed (a
	// standard context made from c): every waiter is looked at again.
	eng.rescanAsync()
}

func (c *vctx) String() string {
	if c.noDeadline {
		return "context.WithCancel(virtual)"
	}
	return "context.WithDeadline(virtual " + c.deadline.String() + ")"
}

// follow makes c follow its parent's cancellation.
func (c *vctx) follow() {
	parent := c.parent
	if p, ok := parent.(*vctx); ok {
		p.AfterFunc(func() { c.cancel(p.Err(), context.Cause(p), p.clock()) })
	} else if parent.Done() != nil && !c.watch(parent) {
		context.AfterFunc(parent, func() { c.cancel(parent.Err(), context.Cause(parent), vc{}) })
	}
}

// watch propagates the cancellation of a parent of a type the context
// package does not know (a mock clock's context) as Go does, with a
// goroutine that waits for either to be done; here that goroutine is
// controlled, so the cancellation reaches c at a step of the schedule
// rather than whenever a real goroutine gets to run. The goroutine is
// Period's, not the test's: never reported as a leak. It reports false
// outside control.
func (c *vctx) watch(parent context.Context) bool {
	e := eng
	e.mu.Lock()
	defer e.mu.Unlock()
	g := e.callerG()
	if g == nil || !e.active.Load() {
		return false
	}
	const site = "context propagation"
	w := e.spawn(g, site, func() {
		pd, cd := parent.Done(), c.Done()
		k := Select(site, false, RecvCase(pd), RecvCase(cd))
		select {
		case <-RecvIf(k, 0, pd):
			SelectDone(k)
			c.cancel(parent.Err(), context.Cause(parent), vc{})
		case <-RecvIf(k, 1, cd):
			SelectDone(k)
		}
	}, 0)
	w.helper = true
	return true
}

// cancelFunc is c's CancelFunc: it stops the deadline timer vt (if any) and
// cancels c with the caller's clock.
func (c *vctx) cancelFunc(vt *vtimer) context.CancelFunc {
	f := c.cancelCauseFunc(vt)
	return func() { f(nil) }
}

func (c *vctx) cancelCauseFunc(vt *vtimer) context.CancelCauseFunc {
	return func(cause error) {
		e := eng
		e.mu.Lock()
		e.leaveFree(e.callerG()) // Done is closed without a key point
		if vt != nil {
			vt.active = false
		}
		clk := e.releaseClock(e.callerG())
		e.mu.Unlock()
		c.cancel(context.Canceled, cause, clk)
	}
}

// WithCancel is context.WithCancel(parent).
func WithCancel(parent context.Context) (context.Context, context.CancelFunc) {
	e := eng
	_, md := e.enter()
	if md != modeControl {
		return context.WithCancel(parent)
	}
	c := e.newCancelCtx(parent)
	e.mu.Unlock()
	c.follow()
	return c, c.cancelFunc(nil)
}

// newCancelCtx makes a virtual context without deadline, canceled by hand.
// e.mu is held.
func (e *engine) newCancelCtx(parent context.Context) *vctx {
	c := newVctx(parent)
	c.noDeadline = true
	return c
}

// WithCancelCause is context.WithCancelCause(parent).
func WithCancelCause(parent context.Context) (context.Context, context.CancelCauseFunc) {
	e := eng
	_, md := e.enter()
	if md != modeControl {
		return context.WithCancelCause(parent)
	}
	c := e.newCancelCtx(parent)
	e.mu.Unlock()
	c.follow()
	return c, c.cancelCauseFunc(nil)
}

// WithDeadlineCause is context.WithDeadlineCause(parent, d, cause).
func WithDeadlineCause(parent context.Context, d time.Time, cause error) (context.Context, context.CancelFunc) {
	if cur, ok := parent.Deadline(); ok && cur.Before(d) {
		return WithCancel(parent)
	}
	e := eng
	g, md := e.enter()
	if md != modeControl {
		return outsideDeadline(parent, d, cause)
	}
	c := newVctx(parent)
	c.deadline, c.cause = d, cause
	now := e.now()
	if d.Sub(now) < time.Duration(stepDrift) {
		// As the context package does: a deadline already passed cancels
		// c before it is returned, so ctx.Err() is DeadlineExceeded at once
		// and not only after a timer fires at a later step. So does one
		// nearer than a step: the context package's own reading of the
		// clock takes that long (a step of the model), and natively a 1 ns
		// timeout has always passed when anything looks (go-openai's
		// tests expect a request with one to fail; the request, run in
		// the standard library without a step, beat the timer).
		clk := e.releaseClock(g)
		e.mu.Unlock()
		c.follow()
		c.cancel(context.DeadlineExceeded, cause, clk)
		return c, c.cancelFunc(nil)
	}
	vt := &vtimer{when: later(e.vnow(), int64(d.Sub(now))), ctx: c, creator: g, vc: e.releaseClock(g)}
	if vt.when < e.vnow() {
		vt.when = e.vnow()
	}
	c.timer = vt
	e.clock.add(vt)
	e.early(g, time.Duration(vt.when-e.vnow()), vt.when)
	e.mu.Unlock()
	c.follow()
	return c, c.cancelFunc(vt)
}

// WithDeadline is context.WithDeadline(parent, d).
func WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	return WithDeadlineCause(parent, d, nil)
}

// WithTimeout is context.WithTimeout(parent, d).
func WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return WithDeadlineCause(parent, clockNow().Add(d), nil)
}

// WithTimeoutCause is context.WithTimeoutCause(parent, d, cause).
func WithTimeoutCause(parent context.Context, d time.Duration, cause error) (context.Context, context.CancelFunc) {
	return WithDeadlineCause(parent, clockNow().Add(d), cause)
}

// vctxKey finds the nearest virtual context under a context (Value).
var vctxKey = new(int)

// ContextAfterFunc is context.AfterFunc(ctx, f). The context package runs f
// in a goroutine of its own once ctx is done; so does this, but the
// goroutine is controlled (a time.AfterFunc's callback is too), so that f's
// steps are explored and the channels it closes are seen by the model. Its
// start happens after both the registration and the cancellation.
func ContextAfterFunc(site string, ctx context.Context, f func()) (stop func() bool) {
	e := eng
	g, md := e.enter()
	if md != modeControl {
		return context.AfterFunc(ctx, f)
	}
	reg := e.releaseClock(g)
	e.mu.Unlock()
	var started bool // e.mu guards it
	start := func() {
		held := timerFiring.Load() // fired by a deadline: the engine holds e.mu
		if !held {
			e.mu.Lock()
		}
		if !started && !e.finished && e.active.Load() {
			started = true
			clk := reg.clone()
			if h := e.callerG(); h != nil && !held {
				clk.join(e.releaseClock(h))
			} else if v, ok := ctx.Value(vctxKey).(*vctx); ok {
				clk.join(v.clock())
			}
			parent := g
			if parent.status == gDone && len(e.gs) > 0 {
				parent = e.gs[0]
			}
			e.timerStart(e.spawn(parent, site, f, 0), clk)
		}
		if !held {
			e.mu.Unlock()
		}
	}
	var stopReal func() bool
	if v, ok := ctx.Value(vctxKey).(*vctx); ok && v.Done() == ctx.Done() {
		stopReal = v.AfterFunc(start) // called as the cancellation happens
	} else {
		stopReal = context.AfterFunc(ctx, start) // a standard context: when its goroutine runs
	}
	return func() bool {
		if !stopReal() {
			return false
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		return !started
	}
}

// TimerStopIface is x.Stop() through an interface (a library's timer
// interface over time.AfterFunc): the clock's timers are not real ones, so
// a *time.Timer goes through TimerStop.
func TimerStopIface(site string, x interface{ Stop() bool }) bool {
	if t, ok := x.(*time.Timer); ok && t != nil {
		return TimerStop(site, t)
	}
	return x.Stop()
}

// TimerResetIface is x.Reset(d) through an interface.
func TimerResetIface(site string, x interface{ Reset(time.Duration) bool }, d time.Duration) bool {
	if t, ok := x.(*time.Timer); ok && t != nil {
		return TimerReset(site, t, d)
	}
	return x.Reset(d)
}

// TickerStopIface is x.Stop() through an interface a *time.Ticker may
// satisfy.
func TickerStopIface(site string, x interface{ Stop() }) {
	if t, ok := x.(*time.Ticker); ok && t != nil {
		TickerStop(site, t)
		return
	}
	x.Stop()
}

// TickerResetIface is x.Reset(d) through an interface.
func TickerResetIface(site string, x interface{ Reset(time.Duration) }, d time.Duration) {
	if t, ok := x.(*time.Ticker); ok && t != nil {
		TickerReset(site, t, d)
		return
	}
	x.Reset(d)
}

// monoBase anchors the monotonic readings handed to code that reads the
// runtime's clocks through //go:linkname (only their differences mean
// anything, as with runtime.nanotime).
var monoBase = time.Now()

// LinkTimeNow stands for time.now, which a package reached through
// //go:linkname (a fast clock): the instant Now gives, virtual under
// control, and a monotonic reading that moves with it.
func LinkTimeNow() (sec int64, nsec int32, mono int64) {
	t := clockNow()
	return t.Unix(), int32(t.Nanosecond()), int64(t.Sub(monoBase)) + 1
}

// LinkWalltime stands for runtime.walltime reached the same way.
func LinkWalltime() (sec int64, nsec int32) {
	t := clockNow()
	return t.Unix(), int32(t.Nanosecond())
}

// LinkNanotime stands for runtime.nanotime (or time.runtimeNano) reached
// the same way.
func LinkNanotime() int64 { return int64(clockNow().Sub(monoBase)) + 1 }

// ctxClock is the canceller's clock of a virtual context, apart from the
// context: race detection's record of Done channels holds it and not the
// context, which would keep every context of the run and the values of
// its parents reachable (a finalizer of a context value never ran).
type ctxClock struct {
	mu  sync.Mutex
	clk vc
}

func (c *ctxClock) set(clk vc) {
	c.mu.Lock()
	c.clk = clk
	c.mu.Unlock()
}

func (c *ctxClock) get() vc {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clk
}

// goroot is where the standard library's source files are, as stack
// frames name them ("" if unknown).
var goroot = func() string {
	if r := runtime.GOROOT(); r != "" {
		return filepath.ToSlash(r) + "/src/"
	}
	return ""
}()
