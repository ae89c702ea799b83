//go:build go1.21

package rt

import (
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/period-dev/period/strategy"
)

// hchan mirrors the head of the runtime's channel header (runtime/chan.go,
// Go 1.21-1.26). Reading it tells whether an operation can complete without
// consuming anything: buffer count, capacity, closed flag, and whether real
// (uncontrolled) goroutines wait in its queues. checkChanLayout verifies the
// mirror at start-up against channels in known states.
type hchan struct {
	qcount   uint
	dataqsiz uint
	buf      unsafe.Pointer
	elemsize uint16
	closed   uint32
	timer    unsafe.Pointer
	elemtype unsafe.Pointer
	sendx    uint
	recvx    uint
	recvq    waitq
	sendq    waitq
}

type waitq struct {
	first unsafe.Pointer
	last  unsafe.Pointer
}

func chanOf[T any](ch chan T) *hchan { return *(**hchan)(unsafe.Pointer(&ch)) }
func rchanOf[T any](ch <-chan T) *hchan {
	return *(**hchan)(unsafe.Pointer(&ch))
}
func schanOf[T any](ch chan<- T) *hchan {
	return *(**hchan)(unsafe.Pointer(&ch))
}

var chanLayoutOK = checkChanLayout()

func checkChanLayout() bool {
	c := make(chan int, 3)
	c <- 1
	h := chanOf(c)
	if h.qcount != 1 || h.dataqsiz != 3 || h.closed != 0 {
		return false
	}
	close(c)
	if h.closed == 0 {
		return false
	}
	u := make(chan int)
	hu := chanOf(u)
	done := make(chan bool)
	go func() { <-u; done <- true }()
	for i := 0; i < 1000 && hu.recvq.first == nil; i++ {
		gosched()
	}
	ok := hu.recvq.first != nil && hu.sendq.first == nil
	u <- 1
	<-done
	return ok
}

// chanReady reports whether g's send (or receive) on h can complete now.
func (e *engine) chanReady(g *gstate, h *hchan, send bool) bool {
	if h == nil {
		return false
	}
	if h.closed != 0 {
		return true // receive gets the zero value; send panics (a bug worth reaching)
	}
	if send {
		if h.recvq.first != nil {
			return true
		}
		if h.dataqsiz > 0 && h.qcount < h.dataqsiz {
			return !e.queuedBefore(g, h, true)
		}
	} else {
		if h.sendq.first != nil {
			return true
		}
		if h.qcount > 0 {
			return !e.queuedBefore(g, h, false)
		}
	}
	if h.dataqsiz == 0 {
		// Go pairs an unbuffered channel's waiting senders (receivers) with
		// receivers (senders) in the order they queued: one that came later
		// never goes first.
		return e.partnerFor(g, h, send) != nil && !e.queuedBefore(g, h, send)
	}
	return false
}

// queuedBefore reports whether a goroutine that Go would have queued on
// channel h (its send found no receiver or the buffer full, or its receive
// found no sender or the buffer empty, and it has waited at that operation
// since) parked before g. Such a goroutine goes first: Go hands a freed slot
// or an arriving partner to the first queued sender, and a sent value to the
// first queued receiver, at once; a goroutine that comes later never takes
// their place.
func (e *engine) queuedBefore(g *gstate, h *hchan, send bool) bool {
	key := recvKey(h)
	if send {
		key = sendKey(h)
	}
	pl := e.rs.parkedOn[key]
	if pl == nil {
		return false
	}
	if pl.firstAt != e.waitFlips+1 || pl.first != nil && (pl.first.status != gParked || pl.first.seq != pl.firstSq) {
		// One pass until the next flip: with a thousand senders parked
		// that all found a partner (none waited), each evaluation passed
		// over all before it (BenchmarkFanInSchedule).
		e.firstQueued(pl, h, send)
	}
	queued := pl.first != nil && pl.first != g && pl.firstSq < g.seq
	if verifyReady && queued != e.queuedBeforeScan(pl, g, h, send) {
		panic("period: queuedBefore disagrees with its pass")
	}
	return queued
}

// firstQueued finds pl's first live entry that Go has queued on h's side
// and caches it (parkList.first).
func (e *engine) firstQueued(pl *parkList, h *hchan, send bool) {
	drop := 0 // leading entries of goroutines that left the operation
	defer func() {
		if drop > 0 {
			pl.drop(drop)
		}
	}()
	pl.first, pl.firstAt = nil, e.waitFlips+1
	for i, r := range pl.l[pl.head:] {
		o := r.g
		if o.status != gParked || o.seq != r.seq {
			if i == drop {
				drop++
			}
			continue
		}
		if o.waited && queuedAt(o, h, send) {
			pl.first, pl.firstSq = o, r.seq
			return
		}
	}
}

// queuedAt reports whether o, parked, waits to send on h (send) or to
// receive from it.
func queuedAt(o *gstate, h *hchan, send bool) bool {
	return (o.p.op == strategy.OpSend && send || o.p.op == strategy.OpRecv && !send) && o.p.ch == h ||
		o.p.op == strategy.OpSelect && selectHas(o, h, send)
}

// queuedBeforeScan is queuedBefore by a pass over the entries before g
// (verifyReady checks the cache against it).
func (e *engine) queuedBeforeScan(pl *parkList, g *gstate, h *hchan, send bool) bool {
	for _, r := range pl.l[pl.head:] {
		if r.seq >= g.seq {
			break // parked in order: the rest came after g
		}
		if o := r.g; o.status == gParked && o.seq == r.seq && o != g && o.waited && queuedAt(o, h, send) {
			return true
		}
	}
	return false
}

// partnerFor finds a parked goroutine (first come, first served) waiting to
// perform the complementary operation on unbuffered channel h, among those
// parked there (ready.go keeps them per channel side). Entries are appended
// as goroutines park, so in order of seq: the first live one that is not g
// is the one that came first.
func (e *engine) partnerFor(g *gstate, h *hchan, send bool) *gstate {
	key := sendKey(h) // a receiver looks for senders
	if send {
		key = recvKey(h)
	}
	pl := e.rs.parkedOn[key]
	if pl == nil {
		return nil
	}
	l := pl.l[pl.head:]
	var best *gstate
	drop := 0 // leading entries of goroutines that left the operation
	for i, r := range l {
		o := r.g
		if o.status != gParked || o.seq != r.seq {
			if i == drop {
				drop++
			}
			continue
		}
		if o == g {
			continue
		}
		if o.p.op == strategy.OpSend && !send && o.p.ch == h ||
			o.p.op == strategy.OpRecv && send && o.p.ch == h {
			best = o
			break
		}
		// A select with a default never waits in a channel's queue: it is
		// no partner for a goroutine that comes to the channel, it takes
		// the first queued one itself when it runs.
		if o.p.op == strategy.OpSelect && !o.p.hasDefault && selectHas(o, h, !send) {
			best = o
			break
		}
	}
	if drop > 0 {
		pl.drop(drop)
	}
	return best
}

// selectHas reports whether o's select has a case on h in direction send.
func selectHas(o *gstate, h *hchan, send bool) bool {
	for _, c := range o.p.cases {
		if c.ch == h && c.send == send {
			return true
		}
	}
	return false
}

// fire wakes the partner of g's rendezvous on h, if the real channel has
// nobody waiting already. The partner completes its half and then runs to its
// next key point; g waits for it there (transit).
func (e *engine) firePartner(g *gstate, h *hchan, send bool) {
	if h != nil && h.closed == 0 && (send && h.recvq.first != nil || !send && h.sendq.first != nil) {
		// The partner waits for real: a goroutine outside control
		// (controlled ones wait in the model), now working for this run,
		// so the clock waits for it before it jumps (outsideGrace). Also
		// through a buffer: a scheduler a package's init started, woken
		// by a send on its buffered wake-up channel (xtaci/kcp-go).
		e.handedOut++
		e.chanSync(g, h, send, nil)
		return
	}
	if h == nil || h.dataqsiz > 0 || h.closed != 0 {
		e.chanSync(g, h, send, nil)
		return
	}
	p := e.partnerFor(g, h, send)
	if p == nil {
		e.chanSync(g, h, send, nil) // the partner is outside control
		return
	}
	if p.p.op == strategy.OpSelect {
		p.fired = -1
		for i, c := range p.p.cases {
			if c.ch == h && c.send != send {
				p.fired = i
				break
			}
		}
	}
	e.chanSync(g, h, send, p)
	p.lastEv = e.log.Len() - 1
	p.partner = true
	p.settling = true
	p.status = gRunning
	e.leftPoint(p)
	e.transit++
	e.wakeUp(p)
}

// awaitPartner is called by g right after the real operation of a
// rendezvous it completed as the current goroutine: it waits until the
// partner it woke has reached its next key point (or ended). Without it both
// would run their code up to their next key points at the same time, and
// what that code does outside control (a virtual context's cancel and Err,
// uninstrumented packages) would race for real: the same schedule could end
// differently from one run to the next.
func (e *engine) awaitPartner(g *gstate) {
	e.mu.Lock()
	for e.transit > 0 && e.cur == g && !e.finished {
		e.cond.Wait()
	}
	e.mu.Unlock()
}

// chanOp is the common path of send and receive hooks: the key point, then
// (with e.mu released) the caller performs the real operation, which can no
// longer block for long.
func (e *engine) chanOp(g *gstate, site string, h *hchan, send bool) {
	op := strategy.OpRecv
	if send {
		op = strategy.OpSend
	}
	g.p = pending{op: op, site: site, obj: uintptr(unsafe.Pointer(h)), ch: h}
	e.point(g)
	if g.partner {
		g.partner = false
	} else {
		e.firePartner(g, h, send)
	}
	e.mu.Unlock()
}

// Send is `ch <- v`.
func Send[T any](site string, ch chan<- T, v T) {
	e := eng
	g, m := e.enter()
	switch m {
	case modeControl:
		e.chanOp(g, site, schanOf(ch), true)
		ch <- v
		e.awaitPartner(g)
		return
	case modeSkip:
		return
	}
	if g == nil && e.active.Load() {
		// Released before the send: a controlled receiver takes the
		// channel's clocks before the value (firePartner).
		e.outsideChan(schanOf(ch), false)
		e.plainChan(schanOf(ch), true)
		select {
		case ch <- v:
		default:
			w := e.blockingOutside(schanOf(ch))
			ch <- v
			w.release()
		}
	} else {
		ch <- v
	}
	e.touchAsync(schanOf(ch))
	if g == nil {
		e.outsideChan(schanOf(ch), true)
		e.kickIdle()
	}
	e.opDone(g)
}

// SendOn is `ch <- v` where v is of another type than ch's elements but
// assignable to it: SendOn(ch)(site, v) infers T from the channel alone, so
// that the compiler converts v as the send statement does.
func SendOn[T any](ch chan<- T) func(site string, v T) {
	return func(site string, v T) { Send(site, ch, v) }
}

// Recv is `<-ch`.
func Recv[T any](site string, ch <-chan T) T {
	v, _ := Recv2(site, ch)
	return v
}

// Recv2 is `v, ok := <-ch`.
func Recv2[T any](site string, ch <-chan T) (T, bool) {
	e := eng
	g, m := e.enter()
	switch m {
	case modeControl:
		e.chanOp(g, site, rchanOf(ch), false)
		v, ok := <-ch
		e.awaitPartner(g)
		return v, ok
	case modeSkip:
		var zero T
		return zero, false
	}
	var v T
	var ok bool
	if g == nil && e.active.Load() {
		select {
		case v, ok = <-ch:
		default:
			w := e.blockingOutside(rchanOf(ch))
			v, ok = <-ch
			w.release()
		}
	} else {
		v, ok = <-ch
	}
	e.touchAsync(rchanOf(ch))
	if g == nil {
		e.outsideChan(rchanOf(ch), true)
		e.plainChan(rchanOf(ch), false)
		e.kickIdle()
	}
	e.opDone(g)
	return v, ok
}

// blockingOutside: a goroutine outside control (a net/http handler) is
// about to block on h, a send or receive nobody is ready for. Its partner
// may be a controlled goroutine parked in the model, which can go once the
// engine sees this one queued on h, and nothing tells the engine that: it
// looks at h again shortly, then every millisecond until w.stop (a server's
// handler registering with a controlled goroutine waited until the test's
// 100 ms timeout, r3labs/sse). The first look comes after the goroutine
// has had time to queue itself. The later looks are one watcher's for all
// such goroutines: one timer each, with hundreds blocked (CorentinB/warc's
// 256 connections' writers), took e.mu 250,000 times a second from the
// program's own goroutines.
func (e *engine) blockingOutside(hs ...*hchan) *outsideWait {
	w := newOutsideWait(e)
	w.watch(hs...)
	return w
}

// outsideWait is what the engine keeps of a goroutine outside control
// about to block on channels: those it watches (blockingOutside) and, in a
// select, those SelectDone releases (outsideChan). Records are pooled, their
// timer and lists reused: a connection's writer that blocks once a packet
// otherwise cost a timer, closures and lists an operation, allocations that
// code counting its own (pion/ice's "does not allocate" tests, with
// testing.AllocsPerRun around a write and a read) saw and go test does not.
type outsideWait struct {
	e     *engine
	mu    sync.Mutex
	armed bool     // watching hs: the first look is pending or done, stop not yet called
	hs    []*hchan // the channels watched
	first *time.Timer
	chans []*hchan // a select's channels, released at SelectDone
	cases []Case   // a plain-mode goroutine's select cases (SelectCaseDone)
}

var outsideWaits = sync.Pool{New: func() any { return new(outsideWait) }}

func newOutsideWait(e *engine) *outsideWait {
	w := outsideWaits.Get().(*outsideWait)
	w.mu.Lock()
	w.e = e
	w.mu.Unlock()
	return w
}

// watch arms the looks at hs.
func (w *outsideWait) watch(hs ...*hchan) {
	e := w.e
	w.mu.Lock()
	w.hs = append(w.hs[:0], hs...)
	w.armed = true
	if w.first == nil {
		w.first = time.AfterFunc(50*time.Microsecond, w.look)
	} else {
		w.first.Reset(50 * time.Microsecond)
	}
	w.mu.Unlock()
	bo := &e.blockedOutside
	bo.mu.Lock()
	if bo.chans == nil {
		bo.chans = map[*hchan]int{}
	}
	for _, h := range hs {
		bo.chans[h]++
	}
	if !bo.ticking {
		bo.ticking = true
		time.AfterFunc(time.Millisecond, e.watchBlockedOutside)
	}
	bo.mu.Unlock()
}

// look is the first look at the watched channels. A late one, after stop
// and the record's reuse, looks at the next wait's channels: harmless.
func (w *outsideWait) look() {
	periodOwn.Add(1) // not a goroutine of the program's (freshOutside)
	defer periodOwn.Add(-1)
	w.mu.Lock()
	if !w.armed {
		w.mu.Unlock()
		return
	}
	e := w.e
	for _, h := range w.hs {
		e.touchAsync(h)
	}
	w.mu.Unlock()
	e.kickIdle()
}

// stop ends the looks at the watched channels.
func (w *outsideWait) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.armed {
		return
	}
	w.armed = false
	w.first.Stop()
	bo := &w.e.blockedOutside
	bo.mu.Lock()
	for _, h := range w.hs {
		if bo.chans[h]--; bo.chans[h] <= 0 {
			delete(bo.chans, h)
		}
	}
	bo.mu.Unlock()
}

// release stops the looks and returns w to the pool, holding no channel.
func (w *outsideWait) release() {
	w.stop()
	w.mu.Lock()
	clear(w.hs)
	clear(w.chans)
	clear(w.cases)
	w.hs, w.chans, w.cases, w.e = w.hs[:0], w.chans[:0], w.cases[:0], nil
	w.mu.Unlock()
	outsideWaits.Put(w)
}

// outsideSelect returns the record of the calling goroutine outside
// control in a select, made if it has none.
func (e *engine) outsideSelect(id int64) *outsideWait {
	e.outsideMu.Lock()
	defer e.outsideMu.Unlock()
	w := e.outsideSelects[id]
	if w == nil {
		w = newOutsideWait(e)
		if e.outsideSelects == nil {
			e.outsideSelects = map[int64]*outsideWait{}
		}
		e.outsideSelects[id] = w
	}
	return w
}

// blockedOutside is the channels goroutines outside control are blocked
// on (blockingOutside), with how many goroutines each.
type blockedOutside struct {
	mu      sync.Mutex
	chans   map[*hchan]int
	ticking bool // watchBlockedOutside is scheduled
}

// watchBlockedOutside looks at the channels goroutines outside control are
// blocked on, every millisecond while there are any and a run is active.
func (e *engine) watchBlockedOutside() {
	periodOwn.Add(1)
	defer periodOwn.Add(-1)
	w := &e.blockedOutside
	w.mu.Lock()
	if len(w.chans) == 0 || !e.active.Load() {
		w.ticking = false
		w.mu.Unlock()
		return
	}
	hs := make([]*hchan, 0, len(w.chans))
	for h := range w.chans {
		hs = append(hs, h)
	}
	w.mu.Unlock()
	for _, h := range hs {
		e.touchAsync(h)
	}
	e.kickIdle()
	time.AfterFunc(time.Millisecond, e.watchBlockedOutside)
}

// Close is `close(ch)`.
func Close[T any](site string, ch chan<- T) {
	h := schanOf(ch)
	if g, ok := closeKeyPoint(site, h); ok {
		close(ch)
		closeDone(g, h)
	}
}

// closeKeyPoint is the key point of a close of h (Close, ReflectClose); it
// reports whether the caller is to close the channel, then call closeDone
// (false while unwinding).
func closeKeyPoint(site string, h *hchan) (*gstate, bool) {
	e := eng
	g, m := e.enter()
	switch m {
	case modeControl:
		g.p = pending{op: strategy.OpClose, site: site, obj: uintptr(unsafe.Pointer(h)), ch: h}
		e.point(g)
		e.chanClose(g, h)
		if h != nil && (h.recvq.first != nil || h.sendq.first != nil) {
			e.handedOut++ // it wakes goroutines outside control (firePartner)
		}
		e.mu.Unlock()
	case modeSkip:
		return g, false
	}
	if g == nil {
		e.outsideChan(h, false) // before the close: a controlled receiver may go at once
	}
	return g, true
}

// closeDone follows the real close of h by g.
func closeDone(g *gstate, h *hchan) {
	eng.touchAsync(h)
	if g == nil {
		eng.outsideChan(h, true)
		eng.kickIdle()
	}
	eng.opDone(g)
}

// Case is one case of a select, built by SendCase or RecvCase.
type Case struct {
	ch   *hchan
	send bool
}

// SendCase describes a `case ch <- v` of a select.
func SendCase[T any](ch chan<- T) Case { return Case{ch: schanOf(ch), send: true} }

// RecvCase describes a `case <-ch` of a select.
func RecvCase[T any](ch <-chan T) Case { return Case{ch: rchanOf(ch)} }

// selectAll means "not controlled: arm every case" (the plain select).
const selectAll = -2

// Select is the key point of a select statement. It returns the index of the
// case that fires (-1: default); the rewritten select then arms only that
// case (RecvIf/SendIf/DefaultIf), which is ready by construction.
func Select(site string, hasDefault bool, cases ...Case) int {
	e := eng
	g, m := e.enter()
	switch m {
	case modePlain:
		return plainSelect(hasDefault, cases)
	case modeSkip:
		if hasDefault {
			return -1
		}
		// Unwinding: blocking forever is wrong, and so is firing a case.
		g.unwind()
	}
	// The cases go in g's own buffer: the variadic slice then stays on the
	// caller's stack, as a native select allocates nothing (pion/ice's
	// "does not allocate" writes check a loop's Err with a select).
	g.cases = append(g.cases[:0], cases...)
	g.p = pending{op: strategy.OpSelect, site: site, cases: g.cases, hasDefault: hasDefault}
	g.commit = 0
	if len(cases) > 0 {
		g.p.obj = uintptr(unsafe.Pointer(cases[0].ch))
	}
	e.point(g)
	if g.partner {
		g.partner = false
		k := g.fired
		e.mu.Unlock()
		return k
	}
	var ready []int
	for i, c := range cases {
		if e.chanReady(g, c.ch, c.send) {
			ready = append(ready, i)
		}
	}
	k := -1
	switch len(ready) {
	case 0:
	case 1:
		k = ready[0]
	default:
		if c := g.commit - 1; c >= 0 && slices.Contains(ready, c) {
			k = c // Go handed it this case while it was blocked
		} else {
			k = ready[e.choose(g, len(ready))]
		}
	}
	if k < 0 {
		for _, c := range cases { // the default: g only looked at them
			if c.ch != nil {
				e.polled(g, chanKey(c.ch, c.send))
			}
		}
	}
	if k >= 0 {
		e.effect()
		g.acted()
		op := strategy.OpRecv
		if cases[k].send {
			op = strategy.OpSend
		}
		e.commitWaiters(g, cases[k].ch, op) // before touchChan wakes them
		e.touchChan(cases[k].ch)
		g.p.obj = uintptr(unsafe.Pointer(cases[k].ch))
		e.firePartner(g, cases[k].ch, cases[k].send)
	}
	e.mu.Unlock()
	return k
}

// RecvIf arms a receive case: ch if case i fires, else nil.
func RecvIf[T any](sel, i int, ch <-chan T) <-chan T {
	if sel == i || sel == selectAll {
		return ch
	}
	return nil
}

// SendIf arms a send case: ch if case i fires, else nil.
func SendIf[T any](sel, i int, ch chan<- T) chan<- T {
	if sel == i || sel == selectAll {
		return ch
	}
	return nil
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// DefaultIf stands for the default case: a closed channel when default fires.
func DefaultIf(sel int) <-chan struct{} {
	if sel == -1 {
		return closedChan
	}
	return nil
}

// SelectCaseDone is SelectDone in the body of the select's case i (not
// default): when the real select decided (sel is selectAll) for a
// controlled goroutine in plain mode (AllocsPerRun), the engine learns
// which case fired, and moves its channel's clocks (plainChan).
func SelectCaseDone(sel, i int) {
	if sel == selectAll {
		eng.plainCaseDone(i)
	}
	SelectDone(sel)
}

func (e *engine) plainCaseDone(i int) {
	id := e.plainGoid.Load()
	if id == 0 || id != goid() {
		return
	}
	e.outsideMu.Lock()
	w := e.outsideSelects[id]
	e.outsideMu.Unlock()
	if w != nil && i < len(w.cases) {
		e.plainChan(w.cases[i].ch, w.cases[i].send)
	}
}

// SelectDone is the first statement of every case body of a rewritten
// select: after the real operation of a case that was a rendezvous, the
// goroutine waits for its partner (awaitPartner).
//
// In a goroutine outside control (an HTTP handler of a server the test
// started) the case has sent, received or seen a close on a channel that a
// controlled goroutine may wait on: as after Send and Recv outside control,
// the engine looks at the waiters again, at once if it idles (a test that
// waits for its handler with a timeout beside must not see the timeout
// fire first).
func SelectDone(sel int) {
	if sel == -1 {
		return // default: no channel operation
	}
	e := eng
	if sel >= 0 {
		g, m := e.enterAs(false)
		if m == modeControl {
			e.mu.Unlock()
			e.awaitPartner(g)
			return
		}
		if g != nil {
			return // unwinding, or done
		}
	}
	if sel == selectAll { // also after the run ended: nothing stays behind
		id := goid()
		e.outsideMu.Lock()
		w := e.outsideSelects[id]
		delete(e.outsideSelects, id)
		e.outsideMu.Unlock()
		if w != nil {
			w.stop()
			for _, h := range w.chans {
				e.outsideChan(h, true) // which case fired is not known: all
			}
			w.release()
		}
	}
	if e.active.Load() {
		e.rescanAsync() // which case fired is not known here
		e.kickIdle()
	}
}

// watchOutsideSelect: a goroutine outside control is about to block in a
// select without default (none of its cases is ready); as for a single
// send or receive (blockingOutside), the engine looks at its channels
// again until SelectDone.
func (e *engine) watchOutsideSelect(cases []Case) {
	if !e.active.Load() || !chanLayoutOK {
		return
	}
	n := 0
	for _, c := range cases {
		h := c.ch
		if h == nil {
			continue
		}
		if h.timer != nil && !c.send && !timerReady(h) {
			// A real timer that has not fired (a handler's own
			// time.After: benthos's HTTP server input gives up after 5
			// s): the select still blocks, and the engine must see it
			// queued on its other channels, or a controlled goroutine
			// waiting for it is left blocked until the clock jumps.
			continue
		}
		if h.closed != 0 || c.send && (h.dataqsiz > 0 && h.qcount < h.dataqsiz || h.recvq.first != nil) ||
			!c.send && (h.qcount > 0 || h.sendq.first != nil || h.timer != nil) {
			return // it may not block: nothing to watch
		}
		n++
	}
	if n == 0 {
		return
	}
	w := e.outsideSelect(goid())
	w.mu.Lock()
	hs := w.hs[:0]
	for _, c := range cases {
		if c.ch != nil {
			hs = append(hs, c.ch)
		}
	}
	w.hs = hs
	w.mu.Unlock()
	w.watch(hs...)
}

// BlockForever is `select {}`.
func BlockForever(site string) {
	e := eng
	g, m := e.enter()
	switch m {
	case modeControl:
		g.p = pending{op: strategy.OpSelect, site: site}
		e.point(g) // never ready: returns only by unwinding
		e.mu.Unlock()
	case modeSkip:
		g.unwind()
	}
	select {}
}

// plainSelect serves goroutines outside control. Without a default every case
// is armed and the real select decides. With a default, the rewritten select
// has none (its default became DefaultIf), so readiness is read off the
// channels: no case ready means default, as Go's select would decide at that
// instant, unless a controlled goroutine is blocked at the other end of an
// unbuffered case (partnerBlocked).
func plainSelect(hasDefault bool, cases []Case) int {
	e := eng
	if hasDefault {
		if i := plainReady(e, cases); i != -1 || !e.partnerBlocked(cases) {
			return i
		}
		// A controlled goroutine waits, blocked, at the other end of an
		// unbuffered case: Go would complete that case at once and never
		// take the default (benthos's HTTP handlers tell the test of each
		// request with a send that must not block, and the test waited
		// for them in vain). The caller waits in the real channel, as a
		// select without a default does, until the engine has that
		// goroutine take the case (partnerBlocked committed its select).
	}
	e.watchOutsideSelect(cases)
	if id := e.plainGoid.Load(); id != 0 && id == goid() {
		w := e.outsideSelect(id)
		w.cases = append(w.cases[:0], cases...) // SelectCaseDone moves the fired case's clocks
	}
	if e.outsideCaller() {
		w := e.outsideSelect(goid())
		for _, c := range cases {
			if c.ch != nil {
				w.chans = append(w.chans, c.ch) // SelectDone acquires
				e.outsideChan(c.ch, false)
			}
		}
	}
	return selectAll
}

// plainReady is the first of cases that can proceed now, -1 for none, for a
// goroutine outside control.
func plainReady(e *engine, cases []Case) int {
	if !chanLayoutOK {
		return -1
	}
	for i, c := range cases {
		h := c.ch
		if h == nil {
			continue
		}
		if h.timer != nil && !c.send && timerReady(h) {
			return i
		}
		if h.closed != 0 || c.send && (h.dataqsiz > 0 && h.qcount < h.dataqsiz || h.recvq.first != nil) ||
			!c.send && (h.qcount > 0 || h.sendq.first != nil) {
			e.outsideChan(h, true) // ready: its operation follows at once
			e.plainChan(h, c.send)
			return i
		}
	}
	return -1
}

// partnerBlocked tells whether, for a goroutine outside control, a
// controlled goroutine is blocked at the other end of one of cases'
// unbuffered channels: parked at the opposite operation, or at a select
// without a default that has it, with nothing else ready, and not already
// chosen by another goroutine outside control (Go hands a blocked receiver
// one value: a second handler's send takes its default).
func (e *engine) partnerBlocked(cases []Case) bool {
	if !chanLayoutOK || !e.active.Load() || !anyUnbuffered(cases) {
		return false // a poller outside control need not take the engine's lock
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.finished || e.byGoid.get(goid()) != nil { // a controlled one in plain mode holds the turn: it must not wait
		return false
	}
	for _, c := range cases {
		h := c.ch
		if h == nil || h.dataqsiz != 0 || h.closed != 0 {
			continue
		}
		key := sendKey(h) // a receiver looks for senders
		if c.send {
			key = recvKey(h)
		}
		pl := e.rs.parkedOn[key]
		if pl == nil {
			continue
		}
		for _, r := range pl.l[pl.head:] {
			o := r.g
			if o.status != gParked || o.seq != r.seq || o.claimed == o.seq || !e.stuck(o) {
				continue
			}
			at := -1
			switch {
			case o.p.op == strategy.OpSend && !c.send && o.p.ch == h, o.p.op == strategy.OpRecv && c.send && o.p.ch == h:
			case o.p.op == strategy.OpSelect:
				for i, oc := range o.p.cases {
					if oc.ch == h && oc.send != c.send {
						at = i
						break
					}
				}
				if at < 0 {
					continue
				}
				// Go completes o's select with this case: a case
				// that becomes ready before the caller reaches the
				// channel must not be chosen instead.
				o.commit = at + 1
			default:
				continue
			}
			o.claimed = o.seq
			return true
		}
	}
	return false
}

// anyUnbuffered tells whether one of cases is on an open unbuffered
// channel, the only kind partnerBlocked looks at.
func anyUnbuffered(cases []Case) bool {
	for _, c := range cases {
		if h := c.ch; h != nil && h.dataqsiz == 0 && h.closed == 0 {
			return true
		}
	}
	return false
}

// stuck tells whether parked g's channel operation cannot proceed (ready
// without its bookkeeping). e.mu is held.
func (e *engine) stuck(g *gstate) bool {
	switch g.p.op {
	case strategy.OpSend, strategy.OpRecv:
		return !e.chanReady(g, g.p.ch, g.p.op == strategy.OpSend)
	case strategy.OpSelect:
		if g.p.hasDefault {
			return false
		}
		for _, c := range g.p.cases {
			if e.chanReady(g, c.ch, c.send) {
				return false
			}
		}
		return true
	}
	return false
}

// timerReady tells whether the channel of a real timer (one made outside
// control) holds a tick. Since Go 1.23 such a channel shows nothing in its
// buffer until a receive asks the timer to fire, so peeking cannot tell: a
// non-blocking receive does, and the tick taken is put back for the
// select's own receive.
func timerReady(h *hchan) bool {
	tc := *(*chan time.Time)(unsafe.Pointer(&h))
	select {
	case v := <-tc:
		select {
		case tc <- v:
		default: // a newer tick came in meanwhile
		}
		return true
	default:
		return false
	}
}
