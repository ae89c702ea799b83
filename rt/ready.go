//go:build go1.21

package rt

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/period-dev/period/strategy"
)

// Incremental enabled set. A decision used to ask every goroutine of the run
// whether its pending operation could complete, and a channel operation
// looked for its partner among every goroutine again: a key point cost
// O(goroutines²) however few of them could move. Now a parked goroutine is
// either a candidate (looked at, at the next decision) or blocked: found not
// ready and registered under what it waits for (a channel side, a mutex,
// WaitGroup, Once or Cond, the clock). An operation that can make waiters
// ready touches its key, which makes its blocked waiters candidates again.
// The enabled slice is the candidates found ready, sorted by GID, exactly as
// a full pass computed it, so schedules do not change.
//
// What the engine does not see (a goroutine outside control operating on a
// channel without a hook) is caught by a full pass before a run is declared
// blocked (deadlock, leak), and by one every max(rescanEvery, goroutines)
// decisions.
//
// A goroutine parked at an operation that is always ready (alwaysReady: a
// memory access, an atomic, a go statement, a Gosched, a select with a
// default...) is no candidate: it stays ready until it runs, so it is put in
// the enabled set once (fast) and looked at again only when it parks anew or
// stops being parked (dirty). A goroutine found ready at a Lock or RLock
// that waits for the mutex to be free (waitLock) stays so until the mutex
// model changes (lockChanged): no candidate either meanwhile. The enabled
// set (en) and the events given to the strategy (evs) are kept from one
// decision to the next and changed only where goroutines changed (flush),
// and how often each was passed over is kept
// as a stamp (passedOf) with an upper bound of them all (maxAt), so that
// a decision among a thousand enabled goroutines costs about what one among
// ten does.

// waitRef is a blocked goroutine registered under a key; gen tells stale
// entries (the goroutine was woken by another key meanwhile) from live ones.
type waitRef struct {
	g   *gstate
	gen uint32
}

// parkRef is a goroutine parked at a channel operation, for partnerFor;
// seq tells whether it is still parked at that same operation.
type parkRef struct {
	g   *gstate
	seq uint64
}

type waitList struct{ l []waitRef }

type readySet struct {
	cand      []*gstate             // parked goroutines to look at at the next decision
	waitOn    map[uintptr]*waitList // key -> blocked goroutines waiting for it
	lastKey   uintptr               // waitOn's last key looked up: waiters block in runs
	lastList  *waitList
	sleepers  sleepQueue            // blocked in Sleep: woken when the clock moves
	parkedOn  map[uintptr]*parkList // unbuffered channel side -> goroutines parked there
	since     int                   // decisions since the last full pass
	checks    int                   // readiness evaluations in this run (tests)
	tmp       []*gstate             // sortByGID's buffer
	unsorted  bool                  // cand is not sorted by GID
	sortedLen int                   // cand[:sortedLen] is, if unsorted
	trimAt    int                   // len(waitOn)+len(parkedOn) at which trim looks for dead keys
	// live is e.gs without the goroutines a full pass found ended: a
	// context canceled at every iteration of a loop that starts goroutines
	// asks for a full pass each time, and a pass over every goroutine the
	// run ever had was 70 % of a pubsub test's time (rescan).
	live []*gstate

	en        []*gstate        // the enabled set at the last pass, sorted by GID (placed)
	evs       []strategy.Event // the pending events of en, index by index
	ins, del  []*gstate        // goroutines to put in en, to take out (flush)
	en2       []*gstate        // flush's buffers
	evs2      []strategy.Event
	dirty     []*gstate // goroutines out of cand that parked anew or left their key point since the last pass
	maxAt     int       // at least the largest passedAt in en (starved)
	decisions int       // decisions that passed over every goroutine of en but one
	epoch     uint32    // runs so far: tells mutexModel.lockReady of this run

	asyncMu    sync.Mutex
	async      []uintptr   // keys touched outside e.mu (a goroutine outside control)
	asyncSpare []uintptr   // the other list, while drainAsync reads one
	asyncAny   atomic.Bool // async is not empty, or a full pass is asked for
	asyncAll   bool        // a full pass is asked for (a context was canceled)
}

// rescanEvery bounds how long a change the engine does not see can go
// unnoticed (in decisions); the pass is at most every len(e.gs) decisions,
// so that it costs O(1) per decision.
const rescanEvery = 1024

// verifyReady makes every decision check the incremental set against a full
// pass (Period's own tests turn it on).
var verifyReady bool

func (r *readySet) reset() {
	for _, g := range r.cand {
		g.inCand = false
	}
	r.cand = r.cand[:0]
	clear(r.live)
	r.live = r.live[:0]
	r.unsorted = false
	if r.waitOn == nil || len(r.waitOn) > 0 {
		r.waitOn = map[uintptr]*waitList{}
	}
	r.lastKey, r.lastList = 0, nil
	if r.parkedOn == nil || len(r.parkedOn) > 0 {
		r.parkedOn = map[uintptr]*parkList{}
	}
	r.sleepers.reset()
	r.since, r.checks, r.trimAt = 0, 0, minTrim
	r.epoch++
	for _, l := range [][]*gstate{r.en, r.dirty, r.ins, r.del, r.en2[:cap(r.en2)]} {
		clear(l)
	}
	clear(r.evs)
	clear(r.evs2[:cap(r.evs2)])
	r.en, r.evs, r.dirty, r.ins, r.del, r.decisions, r.maxAt = r.en[:0], r.evs[:0], r.dirty[:0], r.ins[:0], r.del[:0], 0, math.MinInt
	r.asyncMu.Lock()
	r.async = r.async[:0]
	r.asyncAll = false
	r.asyncAny.Store(false)
	r.asyncMu.Unlock()
}

// Channel keys: receivers wait under the channel's address, senders under
// the address with its low bit set (an hchan is word-aligned, so no other
// object has that address).
func recvKey(h *hchan) uintptr { return uintptr(unsafe.Pointer(h)) }
func sendKey(h *hchan) uintptr { return uintptr(unsafe.Pointer(h)) | 1 }

// addCand makes parked goroutine g a candidate. e.mu is held.
func (e *engine) addCand(g *gstate) {
	g.blocked = false
	if !g.inCand {
		g.inCand = true
		if n := len(e.rs.cand); n > 0 && !e.rs.unsorted && e.rs.cand[n-1].id > g.id {
			e.rs.unsorted, e.rs.sortedLen = true, n
		}
		e.rs.cand = append(e.rs.cand, g)
	}
}

// parked records that g now waits at its pending operation (status gParked).
// A channel operation makes the goroutines on the other side candidates:
// they may have a partner now.
func (e *engine) parked(g *gstate) {
	g.misses = 0
	g.waited = false
	g.blocked = false
	g.newEv = true
	g.lockOK = false
	if g.fast || alwaysReady(g) {
		e.markDirty(g) // its event changed, or it leaves the fast ones
	}
	// A candidate left from its last key point is dropped by collect.
	if g.fast = alwaysReady(g); !g.fast {
		e.addCand(g)
	}
	// A select with a default is a channel's partner too.
	switch g.p.op {
	case strategy.OpSend, strategy.OpRecv:
		e.parkedAt(g, g.p.ch, g.p.op == strategy.OpSend)
	case strategy.OpSelect:
		for _, c := range g.p.cases {
			e.parkedAt(g, c.ch, c.send)
		}
	}
}

func (e *engine) parkedAt(g *gstate, h *hchan, send bool) {
	if h == nil {
		return
	}
	mine, other := recvKey(h), sendKey(h)
	if send {
		mine, other = other, mine
	}
	e.touch(other)
	// Unbuffered: partners, first come first served (partnerFor).
	// Buffered: the order of those Go has queued (queuedBefore).
	pl := e.rs.parkedOn[mine]
	if pl == nil {
		e.rs.trim()
		pl = &parkList{}
		e.rs.parkedOn[mine] = pl
	}
	pl.add(parkRef{g, g.seq})
}

// parkList holds the goroutines parked at one side of a channel, in the
// order they parked; l[:head] are dropped.
type parkList struct {
	l    []parkRef
	head int
	// first is the first live entry whose goroutine Go has queued there
	// (waited), nil for none, as found when e.waitFlips+1 was firstAt.
	// Entries only become waited through waitFlips, and later entries
	// come after: until the next flip, a goroutine is queued behind
	// another iff first is live and parked before it (queuedBefore).
	first   *gstate
	firstSq uint64
	firstAt uint64
}

func (pl *parkList) add(r parkRef) {
	if len(pl.l) == cap(pl.l) && len(pl.l) >= 8 {
		// Full: keep only the goroutines still parked there, in order.
		j := 0
		for _, x := range pl.l[pl.head:] {
			if x.g.status == gParked && x.g.seq == x.seq {
				pl.l[j] = x
				j++
			}
		}
		clear(pl.l[j:])
		pl.l, pl.head = pl.l[:j], 0
	}
	pl.l = append(pl.l, r)
}

// drop forgets the n stale entries at the head.
func (pl *parkList) drop(n int) {
	clear(pl.l[pl.head : pl.head+n])
	pl.head += n
	if pl.head == len(pl.l) {
		pl.l, pl.head = pl.l[:0], 0
	}
}

// touch makes the goroutines blocked under key candidates. e.mu is held.
func (e *engine) touch(key uintptr) {
	w := e.rs.waitOn[key]
	if w == nil || len(w.l) == 0 {
		return
	}
	kept, woken := 0, 0
	for _, r := range w.l {
		if !r.g.blocked || r.g.blockGen != r.gen {
			continue // stale: woken by another key since
		}
		if r.g.p.op == strategy.OpSelect && r.g.commit == 0 {
			e.commitCase(r.g, key)
		}
		if r.g.spinPark {
			if woken == spinWakeMax {
				w.l[kept] = r // stays parked, first in line at the next write
				kept++
				continue
			}
			woken++
			e.unpark(r.g)
		}
		e.addCand(r.g)
	}
	clear(w.l[kept:])
	w.l = w.l[:kept]
}

// commitCase records, for g blocked in a select, the case that key made
// ready: Go's runtime completes a blocked select with the first of its
// channels that becomes ready (a send hands its value to the waiting
// receiver, a close wakes it), so a case that becomes ready later (a
// context cancelled right after the value was sent) must not be chosen
// instead when g runs (lestrrat-go/backoff's Continue after the last
// retry). Buffered and closed channels only: an unbuffered one pairs its
// partner directly (firePartner). e.mu is held.
func (e *engine) commitCase(g *gstate, key uintptr) {
	for i, c := range g.p.cases {
		if c.ch != nil && chanKey(c.ch, c.send) == key && (c.ch.dataqsiz > 0 || c.ch.closed != 0) && e.chanReady(g, c.ch, c.send) {
			g.commit = i + 1
			return
		}
	}
}

// commitWaiters is commitCase for the operation op that next is about to do
// on channel h (stepped, and a select's chosen case, run before it): on a
// buffered channel a send hands its value to the first receiver waiting
// and a receive frees a slot for the first sender waiting; a close wakes
// every receiver. e.mu is held.
func (e *engine) commitWaiters(next *gstate, h *hchan, op strategy.Op) {
	if h == nil || h.closed != 0 || h.dataqsiz == 0 && op != strategy.OpClose {
		return
	}
	var key uintptr
	switch op {
	case strategy.OpSend:
		key = recvKey(h)
	case strategy.OpRecv:
		key = sendKey(h)
	case strategy.OpClose:
		key = recvKey(h)
	}
	w := e.rs.waitOn[key]
	if w == nil {
		return
	}
	for _, r := range w.l {
		g := r.g
		if !g.blocked || g.blockGen != r.gen || g == next {
			continue
		}
		if g.p.op == strategy.OpSelect && g.commit == 0 {
			for i, c := range g.p.cases {
				if c.ch == h && c.send == (op == strategy.OpRecv) {
					g.commit = i + 1
					break
				}
			}
		}
		if op != strategy.OpClose {
			return // the first in line gets the value (or the slot)
		}
	}
}

// touchChan: something happened on channel h that may let either side go.
func (e *engine) touchChan(h *hchan) {
	if h != nil {
		e.touch(recvKey(h))
		e.touch(sendKey(h))
	}
}

// asyncKeys bounds the keys touchAsync lists before it asks for a full pass.
const asyncKeys = 256

// touchAsync is touchChan from code that may or may not hold e.mu (a
// context's cancel closes its Done channel; a goroutine outside control
// operates on a channel): the keys are looked at by the next decision.
func (e *engine) touchAsync(h *hchan) {
	if h == nil {
		return
	}
	e.touchAsyncKeys(recvKey(h), sendKey(h))
}

// touchAsyncKeys is touchAsync for the goroutines waiting under two keys
// (a channel's two sides, or an object's key twice).
func (e *engine) touchAsyncKeys(k1, k2 uintptr) {
	if !e.active.Load() {
		return
	}
	e.rs.asyncMu.Lock()
	if len(e.rs.async)+2 > cap(e.rs.async) {
		// Full: a full pass instead, and no allocation (code measuring
		// its own allocations runs channel operations outside control,
		// with no decision between them to drain the list: AllocsPerRun).
		if cap(e.rs.async) == 0 {
			e.rs.async = make([]uintptr, 0, asyncKeys)
		} else {
			e.rs.asyncAll = true
		}
	}
	if !e.rs.asyncAll {
		e.rs.async = append(e.rs.async, k1, k2)
	}
	e.rs.asyncAny.Store(true)
	e.rs.asyncMu.Unlock()
}

// reserveAsync gives the key list its room before code that counts its own
// allocations runs channel operations outside control (AllocsPerRun): the
// first of them allocated it, one allocation too many in a single measured
// run.
func (r *readySet) reserveAsync() {
	r.asyncMu.Lock()
	if cap(r.async) == 0 {
		r.async = make([]uintptr, 0, asyncKeys)
	}
	r.asyncMu.Unlock()
}

// rescanAsync asks for a full pass at the next decision, from code that may
// or may not hold e.mu.
func (e *engine) rescanAsync() {
	if !e.active.Load() {
		return
	}
	e.rs.asyncMu.Lock()
	e.rs.asyncAll = true
	e.rs.asyncAny.Store(true)
	e.rs.asyncMu.Unlock()
}

func (e *engine) drainAsync() {
	if !e.rs.asyncAny.Load() {
		return
	}
	e.rs.asyncMu.Lock()
	keys, all := e.rs.async, e.rs.asyncAll
	e.rs.async, e.rs.asyncAll = e.rs.asyncSpare[:0], false
	e.rs.asyncSpare = nil
	e.rs.asyncAny.Store(false)
	e.rs.asyncMu.Unlock()
	for _, k := range keys {
		e.touch(k)
	}
	if all {
		e.rescan()
	}
	// The two lists take turns: touchAsync may append to the other
	// meanwhile, and neither is allocated again.
	e.rs.asyncMu.Lock()
	e.rs.asyncSpare = keys[:0]
	e.rs.asyncMu.Unlock()
}

// stepped is called when next was chosen to execute its pending operation:
// the operations that can make others ready touch their object. The change
// itself happens before the next decision (next runs its hook first).
func (e *engine) stepped(next *gstate) {
	switch next.p.op {
	case strategy.OpSend, strategy.OpRecv, strategy.OpClose:
		e.commitWaiters(next, next.p.ch, next.p.op)
		e.touchChan(next.p.ch)
	case strategy.OpUnlock, strategy.OpRUnlock, strategy.OpLock, strategy.OpWGAdd, strategy.OpCondSignal:
		e.touch(next.p.obj)
	}
}

// block registers g, parked and not ready, under what it waits for. It
// reports false for operations whose readiness has no key (they stay
// candidates and are looked at every decision).
func (e *engine) block(g *gstate) bool {
	p := &g.p
	switch {
	case p.bubbleWait:
		return false
	case p.op == strategy.OpSend || p.op == strategy.OpRecv:
		e.blockOn(g)
		if p.ch != nil {
			e.waitFor(g, chanKey(p.ch, p.op == strategy.OpSend))
		}
		return true // a nil channel is never ready
	case p.op == strategy.OpSelect:
		e.blockOn(g)
		for _, c := range p.cases {
			if c.ch != nil {
				e.waitFor(g, chanKey(c.ch, c.send))
			}
		}
		return true
	case p.op == strategy.OpYield && g.spinPark:
		e.blockOn(g)
		for _, k := range g.spinKeys {
			e.waitFor(g, k)
		}
		return true
	case p.op == strategy.OpSleep:
		e.blockOn(g)
		e.rs.sleepers.push(g)
		return true
	case p.obj != 0 && (p.ready != nil || p.wait != waitNone):
		switch p.op {
		case strategy.OpLock, strategy.OpRLock, strategy.OpWGWait, strategy.OpOnce, strategy.OpCondWait, strategy.OpResume:
			e.blockOn(g)
			if p.op == strategy.OpLock && p.mm != nil && lockQueuedBehind(g, p.mm) {
				e.waitFor(g, queueKey(p.obj)) // dequeueLock wakes it in its turn
			} else {
				e.waitFor(g, p.obj)
			}
			return true
		}
	}
	return false
}

func chanKey(h *hchan, send bool) uintptr {
	if send {
		return sendKey(h)
	}
	return recvKey(h)
}

func (e *engine) blockOn(g *gstate) {
	g.blocked = true
	g.blockGen++
}

func (e *engine) waitFor(g *gstate, key uintptr) {
	w := e.rs.lastList
	if key != e.rs.lastKey || w == nil {
		w = e.rs.waitOn[key]
		if w == nil {
			e.rs.trim()
			w = &waitList{}
			e.rs.waitOn[key] = w
		}
		e.rs.lastKey, e.rs.lastList = key, w
	}
	l := w.l
	if len(l) == cap(l) && len(l) >= 8 {
		// Drop entries of goroutines woken by another key since.
		j := 0
		for _, r := range l {
			if r.g.blocked && r.g.blockGen == r.gen {
				l[j] = r
				j++
			}
		}
		clear(l[j:])
		l = l[:j]
	}
	w.l = append(l, waitRef{g, g.blockGen})
}

// minTrim is the number of keys below which trim does nothing.
const minTrim = 1024

// trim forgets the keys nobody waits under any more (a channel per loop
// iteration, a time.After each time: a long run must not keep one entry per
// step). It runs when the keys have doubled since the last time, so it costs
// O(1) per new key.
func (r *readySet) trim() {
	if len(r.waitOn)+len(r.parkedOn) < r.trimAt {
		return
	}
	for k, w := range r.waitOn {
		live := false
		for _, x := range w.l {
			if x.g.blocked && x.g.blockGen == x.gen {
				live = true
				break
			}
		}
		if !live {
			delete(r.waitOn, k)
		}
	}
	for k, pl := range r.parkedOn {
		live := false
		for _, x := range pl.l[pl.head:] {
			if x.g.status == gParked && x.g.seq == x.seq {
				live = true
				break
			}
		}
		if !live {
			delete(r.parkedOn, k)
		}
	}
	r.lastKey, r.lastList = 0, nil
	r.trimAt = max(minTrim, 2*(len(r.waitOn)+len(r.parkedOn)))
}

// clockMoved wakes the sleepers whose time has come. e.mu is held.
func (e *engine) clockMoved() {
	for _, r := range e.rs.sleepers.popDue(e.clock.now) {
		e.addCand(r.g)
	}
	if verifyReady {
		for _, g := range e.gs {
			if g.status == gParked && g.blocked && g.p.op == strategy.OpSleep && g.p.wakeAt <= e.clock.now {
				panic(fmt.Sprintf("period: sleeper G%d due at %d still blocked at %d", g.id, g.p.wakeAt, e.clock.now))
			}
		}
	}
}

// unseenReady is a full pass before a verdict that nothing can move: it
// reports whether a goroutine is ready after all.
func (e *engine) unseenReady() bool {
	e.rescan()
	return len(e.refresh()) > 0
}

// nextWake is the earliest wake-up of a blocked sleeper (-1: none).
func (e *engine) nextWake() int64 { return e.rs.sleepers.next() }

// rescan makes every parked goroutine a candidate (a full pass); the fast
// ones are ready until they run.
func (e *engine) rescan() {
	e.rs.since = 0
	live := e.rs.live[:0]
	for _, g := range e.rs.live {
		if g.status == gDone {
			continue
		}
		live = append(live, g)
		if g.status == gParked && !g.inCand && !g.fast && !g.lockOK {
			e.addCand(g)
		}
	}
	clear(e.rs.live[len(live):])
	e.rs.live = live
}

// collect evaluates the candidates: the ready ones are in the enabled set
// (and stay candidates, unless always ready: then they are fast); the others
// block.
func (e *engine) collect() {
	cand := e.rs.cand
	if e.rs.unsorted {
		// Woken waiters were appended in the order they blocked; they
		// block again in GID order, as they always did. A few appended
		// goroutines (one that left a fast operation for a lock) are
		// put in place one by one.
		if k := e.rs.sortedLen; len(cand)-k <= 8 {
			for i := k; i < len(cand); i++ {
				g := cand[i]
				j, _ := slices.BinarySearchFunc(cand[:i], g.id, func(x *gstate, id strategy.GID) int { return cmp.Compare(x.id, id) })
				copy(cand[j+1:i+1], cand[j:i])
				cand[j] = g
			}
		} else {
			e.rs.tmp = sortByGID(cand, e.rs.tmp)
		}
		e.rs.unsorted = false
	}
	j := 0 // cand[:j]: the candidates that stay, still sorted by GID
	for _, g := range cand {
		if g.status != gParked {
			g.inCand = false // it parks again through parked
			e.setEn(g, false)
			continue
		}
		if g.fast {
			g.inCand = false // parked anew at an operation always ready: dirty
			continue
		}
		e.rs.checks++
		if e.ready(g) {
			g.misses = 0
			e.setEn(g, true)
			if g.p.op == strategy.OpYield && alwaysReady(g) || g.p.op == strategy.OpSleep { // parked tells the others
				// A spinner woken at its Gosched, a sleeper whose time
				// came (the clock only moves on): ready until they run.
				g.fast, g.inCand = true, false
				continue
			}
			if mm := g.p.mm; g.p.wait == waitLock && e.lockStable(mm) {
				// Ready until the mutex model changes.
				g.lockOK, g.inCand = true, false
				g.lockGen++
				mm.lockReady = appendLive(mm.lockReady, waitRef{g, g.lockGen})
				continue
			}
			cand[j] = g
			j++
			continue
		}
		e.setEn(g, false)
		// A goroutine that was ready at the last decision stays a
		// candidate once more: waiters for a mutex that is taken and given
		// back at every other step (the herd) would otherwise be blocked
		// and woken every time, which costs more than looking at them.
		if g.misses < 2 {
			g.misses++
		}
		if (g.misses >= 2 || g.p.op == strategy.OpSleep) && e.block(g) { // nextWake needs every sleeper
			g.inCand = false
			continue
		}
		cand[j] = g
		j++
	}
	clear(cand[j:])
	e.rs.cand = cand[:j]
}

// refresh brings the enabled set up to date: the dirty fast goroutines,
// then the candidates.
func (e *engine) refresh() []*gstate {
	for _, g := range e.rs.dirty {
		g.dirty = false
		switch {
		case (g.fast || g.lockOK) && g.status == gParked:
			e.setEn(g, true)
		case !g.inCand: // else collect looks at it
			e.setEn(g, false)
		}
	}
	clear(e.rs.dirty)
	e.rs.dirty = e.rs.dirty[:0]
	e.collect()
	e.rs.flush()
	return e.rs.en
}

// alwaysReady tells whether g's pending operation is ready whatever the
// others do, for as long as g is parked at it (ready returns true without
// looking at anything that can change: spinPark is only set as g arrives).
func alwaysReady(g *gstate) bool {
	p := &g.p
	switch p.op {
	case strategy.OpSend, strategy.OpRecv, strategy.OpSleep:
		return false
	case strategy.OpSelect:
		return p.hasDefault
	case strategy.OpYield:
		return !g.spinPark
	}
	return p.wait == waitNone && p.ready == nil && !p.bubbleWait
}

// appendLive appends r to l, first dropping the entries of goroutines that
// ran since (readers that come and go under a lock nobody writes).
func appendLive(l []waitRef, r waitRef) []waitRef {
	if len(l) == cap(l) && len(l) >= 8 {
		j := 0
		for _, x := range l {
			if x.g.lockOK && x.g.lockGen == x.gen {
				l[j] = x
				j++
			}
		}
		clear(l[j:])
		l = l[:j]
	}
	return append(l, r)
}

// markDirty makes the next pass look at fast goroutine g again.
func (e *engine) markDirty(g *gstate) {
	if !g.dirty {
		g.dirty = true
		e.rs.dirty = append(e.rs.dirty, g)
	}
}

// leftPoint: parked g was chosen to run, or woken as a partner.
func (e *engine) leftPoint(g *gstate) {
	if g.lockOK {
		g.lockOK = false
		e.markDirty(g)
	}
	if g.fast {
		e.markDirty(g)
	}
}

// lockChanged: what a waitLock looks at changed in mm, so the goroutines
// found ready there are candidates again. e.mu is held.
func (e *engine) lockChanged(mm *mutexModel) {
	e.lockStable(mm)
	mm.changedAt = e.rs.decisions
	for _, r := range mm.lockReady {
		if r.g.lockOK && r.g.lockGen == r.gen {
			r.g.lockOK = false
			e.addCand(r.g)
		}
	}
	clear(mm.lockReady)
	mm.lockReady = mm.lockReady[:0]
}

// lockStable tells whether mm's waitLock waiters found ready are worth
// keeping out of the candidates: not when the mutex is taken and given back
// at every other step (the herd), where they would come and go at each.
func (e *engine) lockStable(mm *mutexModel) bool {
	if mm.epoch != e.rs.epoch { // new, or a model of an earlier run (outsidelock)
		clear(mm.lockReady)
		mm.lockReady, mm.epoch, mm.changedAt = mm.lockReady[:0], e.rs.epoch, math.MinInt/2
	}
	return e.rs.decisions-mm.changedAt > lockStableAfter
}

// lockStableAfter is how many decisions a mutex must stay as it is before
// its waiters are kept out of the candidates.
var lockStableAfter = 2

// index is g's place in en (found), or where it would go.
func (r *readySet) index(g *gstate) (int, bool) {
	if i := g.enAt; i < len(r.en) && r.en[i] == g {
		return i, true // most often it has not moved
	}
	i, found := slices.BinarySearchFunc(r.en, g.id, func(x *gstate, id strategy.GID) int { return cmp.Compare(x.id, id) })
	g.enAt = i
	return i, found
}

// setEn puts g in the enabled set with its pending event, or takes it out.
// Goroutines come and go in en itself at flush: a thousand woken at once are
// merged in one pass.
func (e *engine) setEn(g *gstate, in bool) {
	r := &e.rs
	if !in {
		if g.inEn {
			g.inEn = false
			g.passed = r.passedOf(g)
			if g.placed {
				r.del = append(r.del, g)
			}
		}
		return
	}
	if !g.inEn {
		g.inEn = true
		g.passedAt = g.passed - r.decisions
		r.maxAt = max(r.maxAt, g.passedAt)
	}
	switch {
	case g.placed && g.newEv:
		i, _ := r.index(g)
		r.evs[i] = eventOf(g)
		g.newEv = false
	case !g.placed && !g.queued:
		g.queued = true
		r.ins = append(r.ins, g)
	}
}

func eventOf(g *gstate) strategy.Event {
	return strategy.Event{G: g.id, Op: g.p.op, Obj: g.p.obj, Site: g.p.site}
}

// flushOneByOne: up to this many changes are made one by one (a memmove
// each), more by merging (tests set 0, to try merging).
var flushOneByOne = 4

// flush makes en (and evs) hold exactly the goroutines marked inEn.
func (r *readySet) flush() {
	n := len(r.ins) + len(r.del)
	switch {
	case n == 0:
		return
	case n <= flushOneByOne:
		for _, g := range r.del {
			if g.placed && !g.inEn {
				i, _ := r.index(g)
				r.en = slices.Delete(r.en, i, i+1)
				r.evs = slices.Delete(r.evs, i, i+1)
				g.placed = false
			}
		}
		for _, g := range r.ins {
			g.queued = false
			if g.inEn {
				i, _ := r.index(g)
				r.en = slices.Insert(r.en, i, g)
				r.evs = slices.Insert(r.evs, i, eventOf(g))
				g.placed, g.newEv = true, false
			}
		}
	default: // merged
		ins := r.ins[:0]
		for _, g := range r.ins {
			g.queued = false
			if g.inEn {
				ins = append(ins, g)
			}
		}
		r.tmp = sortByGID(ins, r.tmp) // the dirty ones, then collect's in GID order
		en, evs := r.en2[:0], r.evs2[:0]
		a := 0
		for k, g := range r.en {
			if !g.inEn {
				g.placed = false
				continue
			}
			for ; a < len(ins) && ins[a].id < g.id; a++ {
				en, evs = append(en, ins[a]), append(evs, eventOf(ins[a]))
				ins[a].placed, ins[a].newEv = true, false
			}
			en, evs = append(en, g), append(evs, r.evs[k])
		}
		for ; a < len(ins); a++ {
			en, evs = append(en, ins[a]), append(evs, eventOf(ins[a]))
			ins[a].placed, ins[a].newEv = true, false
		}
		r.en, r.evs, r.en2, r.evs2 = en, evs, r.en[:0], r.evs[:0] // reset clears them
	}
	clear(r.ins)
	clear(r.del)
	r.ins, r.del = r.ins[:0], r.del[:0]
}

// passedOf is g.passed of a goroutine in the enabled set: a decision passes
// over every one of them but the one that runs, so only the difference with
// the decisions counted so far is kept.
func (r *readySet) passedOf(g *gstate) int { return g.passedAt + r.decisions }

// starved is the index in en of the goroutine passed over most often (the
// first by GID among equals) if that is at least bound, else -1. Most
// decisions tell from maxAt alone that nobody is near the bound; the pass
// that finds the goroutine makes maxAt exact again.
func (r *readySet) starved(bound int) int {
	if r.maxAt+r.decisions < bound {
		return -1
	}
	k := -1
	r.maxAt = math.MinInt
	for i, g := range r.en {
		if g.passedAt > r.maxAt {
			k, r.maxAt = i, g.passedAt
		}
	}
	if k < 0 || r.passedOf(r.en[k]) < bound {
		return -1
	}
	return k
}

// ran resets the count of next, chosen at this decision.
func (r *readySet) ran(next *gstate) { next.passedAt = -r.decisions }

// fullEnabled is the enabled set by a pass over every goroutine (free mode,
// and the check of verifyReady).
func (e *engine) fullEnabled(buf []*gstate) []*gstate {
	en := buf[:0]
	for _, g := range e.gs {
		if g.status == gParked && e.ready(g) {
			i := len(en)
			en = append(en, g)
			for i > 0 && en[i-1].id > g.id {
				en[i] = en[i-1]
				i--
			}
			en[i] = g
		}
	}
	return en
}

// readyGs is the enabled set before the yield filter.
func (e *engine) readyGs() []*gstate {
	e.drainAsync()
	e.rs.since++
	if e.free || e.rs.since >= rescanEvery && e.rs.since >= len(e.gs) {
		e.rescan()
	}
	en := e.refresh()
	if verifyReady {
		e.verifyEnabled()
	}
	return en
}

// verifyEnabled checks the enabled set against a full pass, and what is kept
// of it (events, flags, the heap) against what it stands for.
func (e *engine) verifyEnabled() {
	r := &e.rs
	en := r.en
	full := e.fullEnabled(nil)
	if fmt.Sprint(gids(full)) != fmt.Sprint(gids(en)) && !e.outsideMadeReady(full, en) {
		panic(fmt.Sprintf("period: incremental enabled set %v, full pass %v", gids(en), gids(full)))
	}
	if len(r.evs) != len(en) || len(r.ins)+len(r.del) > 0 {
		panic(fmt.Sprintf("period: %d enabled, %d events, %d and %d to flush", len(en), len(r.evs), len(r.ins), len(r.del)))
	}
	for i, g := range en {
		if ev := (strategy.Event{G: g.id, Op: g.p.op, Obj: g.p.obj, Site: g.p.site}); r.evs[i] != ev || !g.inEn {
			panic(fmt.Sprintf("period: enabled g%s has event %+v, pending %+v (inEn %v)", g.path, r.evs[i], ev, g.inEn))
		}
		if g.passedAt > r.maxAt {
			panic(fmt.Sprintf("period: enabled g%s passed over at %d, above the bound %d", g.path, g.passedAt, r.maxAt))
		}
		if g.lockOK && (g.inCand || g.fast || g.p.wait != waitLock) {
			panic(fmt.Sprintf("period: enabled g%s ready at a lock, candidate %v, fast %v", g.path, g.inCand, g.fast))
		}
		if g.fast && g.inCand || g.fast != (alwaysReady(g) || g.p.op == strategy.OpSleep) || !g.placed || g.queued {
			panic(fmt.Sprintf("period: enabled g%s at %v: fast %v, candidate %v", g.path, g.p.op, g.fast, g.inCand))
		}
	}
	n := 0
	for _, g := range e.gs {
		if g.inEn {
			n++
		}
	}
	if n != len(en) {
		panic(fmt.Sprintf("period: %d goroutines marked enabled, %d in the enabled set", n, len(en)))
	}
}

// outsideMadeReady reports whether full differs from en only by
// goroutines that a goroutine outside control made ready, queued on a real
// channel they wait on: the engine learns it by a look a little later
// (blockingOutside), not at the instant of the queueing. e.mu is held.
func (e *engine) outsideMadeReady(full, en []*gstate) bool {
	in := map[*gstate]bool{}
	for _, g := range en {
		in[g] = true
	}
	for _, g := range full {
		if in[g] {
			delete(in, g)
			continue
		}
		if !queuedForReal(g) {
			return false
		}
	}
	return len(in) == 0
}

// queuedForReal tells whether a channel g's pending operation uses has a
// real waiter for it: goroutines outside control wait there, controlled
// ones in the model.
func queuedForReal(g *gstate) bool {
	waiter := func(h *hchan, send bool) bool {
		return h != nil && (send && h.recvq.first != nil || !send && h.sendq.first != nil)
	}
	switch g.p.op {
	case strategy.OpSend, strategy.OpRecv:
		return waiter(g.p.ch, g.p.op == strategy.OpSend)
	case strategy.OpSelect:
		for _, c := range g.p.cases {
			if waiter(c.ch, c.send) {
				return true
			}
		}
	}
	return false
}

func gids(gs []*gstate) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.path
	}
	return out
}

// sortByGID sorts gs by GID. They come as a few ascending runs (the
// candidates kept sorted, then each batch of woken waiters in the order they
// blocked, which was GID order too): runs are merged in linear time per
// pass, with tmp as the buffer (returned for reuse); many runs are sorted.
func sortByGID(gs, tmp []*gstate) []*gstate {
	if len(gs) < 2 {
		return tmp
	}
	runs := 1
	for i := 1; i < len(gs); i++ {
		if gs[i-1].id > gs[i].id {
			runs++
		}
	}
	if runs > 8 {
		slices.SortFunc(gs, func(a, b *gstate) int { return cmp.Compare(a.id, b.id) })
		return tmp
	}
	tmp = append(tmp[:0], gs...)
	src, dst := tmp, gs
	for runs > 1 {
		runs = 0
		for i := 0; i < len(src); {
			j := i + 1 // first run: src[i:j]
			for j < len(src) && src[j-1].id < src[j].id {
				j++
			}
			k := j // second run: src[j:k]
			for k < len(src) && (k == j || src[k-1].id < src[k].id) {
				k++
			}
			a, b, o := i, j, i
			for a < j && b < k {
				if src[a].id < src[b].id {
					dst[o] = src[a]
					a++
				} else {
					dst[o] = src[b]
					b++
				}
				o++
			}
			o += copy(dst[o:], src[a:j])
			copy(dst[o:], src[b:k])
			runs++
			i = k
		}
		src, dst = dst, src
	}
	if &src[0] != &gs[0] {
		copy(gs, src)
	}
	clear(tmp)
	return tmp
}
