//go:build go1.21

package rt

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/period-dev/period/strategy"
)

// Data races are found with vector clocks over the operations the engine
// controls (the race detector of `go test -race` cannot help: the
// scheduler's own hand-offs order every pair of goroutines). Happens-before
// follows the Go memory model: goroutine start, channel operations (the k-th
// receive from a channel of capacity C before the (k+C)-th send completes; a
// send before its receive; close before a receive that sees it), mutexes and
// RWMutexes, WaitGroup, Once, Cond, and sync/atomic as sequentially
// consistent synchronisation. Accesses are checked FastTrack-style: the last
// write is one epoch, reads are one epoch per goroutine since that write.

// vc is a vector clock indexed by GID. Its dense part may be shared with
// clones (copy on write), and a few entries of its own lie over it: a
// goroutine just started ticks only its own entry, so a clone costs a
// handful of entries instead of a copy of its parent's clock (100,000
// goroutines started by one that had waited for as many would otherwise
// hold 100,000 clocks of 100,000 entries).
type vc struct {
	d    *vcDense
	over []vcEntry // entries above d's (at most vcOverMax); empty when d is private
	// io: the clock has seen real I/O: it joined, directly or through
	// others, the clock of a goroutine that waited for real or used a
	// connection, pipe or process of the standard library (realWait).
	io bool
	// joined: the ids of shared dense parts v has joined. A shared dense
	// part never changes and clocks only grow, so v covers them for ever:
	// a join of a clock over one of them skips its dense part (a mutex
	// passed between goroutines whose clocks have thousands of entries
	// made every Lock a pass over all of them).
	joined [2]uint64
}

// vcDense is the dense part of one or more clocks. Once shared it is never
// written again: a writer copies it (vc.own).
type vcDense struct {
	v      []uint32
	shared bool
	from   *vcDense // the shared dense part this one was copied from: it holds no entry above this one's
	id     uint64   // set when it is first shared (vc.joined)
	// delta: the entries that differ from from's (deltaLost: more than
	// vcDeltaMax did). A clock that covers from joins this part in
	// O(len(delta)): a publisher that waits for its 50 senders between
	// publishes, received from by thousands, made every receive a pass
	// over all goroutines ever started (moby/pubsub's TestPubSubRace).
	delta     []uint32
	deltaLost bool
}

// vcDeltaMax bounds a dense part's delta.
const vcDeltaMax = 64

// changed records that entry i, which held old, was raised. Entries only
// grow: one that still equals from's has not changed before.
func (d *vcDense) changed(i int, old uint32) {
	if d.from == nil || d.deltaLost {
		return
	}
	if i < len(d.from.v) && old != d.from.v[i] || i >= len(d.from.v) && old != 0 {
		return
	}
	if len(d.delta) == vcDeltaMax {
		d.delta, d.deltaLost = nil, true
		return
	}
	d.delta = append(d.delta, uint32(i))
}

// vcFullPasses counts passes over a whole dense part (copies and joins):
// tests check that common patterns avoid them.
var vcFullPasses atomic.Int64

// vcDenseIDs numbers shared dense parts.
var vcDenseIDs atomic.Uint64

// covers reports whether v's dense part holds every entry of o's at least
// as high: the same one, or a copy of it (the common case of a join between
// goroutines started by one parent, which then costs nothing).
func (v *vc) covers(o *vcDense) bool {
	return v.d == o || v.d != nil && v.d.from == o && o.shared || o.id != 0 && (v.joined[0] == o.id || v.joined[1] == o.id)
}

// remember records that v covers the shared dense part o.
func (v *vc) remember(o *vcDense) {
	if o.id != 0 && v.joined[0] != o.id {
		v.joined[1], v.joined[0] = v.joined[0], o.id
	}
}

type vcEntry struct {
	g strategy.GID
	c uint32
}

// overEntries is a copy of over with room for at least two entries: 16
// bytes, above the tiny allocator's sizes. An 8-byte block of one entry
// shared a tiny block with a small object of the program, and a clock kept
// for the run kept that object from being collected (a finalizer on a
// one-byte struct never ran: yuin/gopher-lua's TestLocalVarFree).
func overEntries(over []vcEntry) []vcEntry {
	if len(over) == 0 {
		return nil
	}
	return append(make([]vcEntry, 0, max(2, len(over))), over...)
}

// vcOverMax bounds the entries a clock keeps over a shared dense part
// before it takes a private copy.
const vcOverMax = 8

// private reports whether v may write its dense part in place.
func (v *vc) private() bool { return v.d != nil && !v.d.shared }

// empty reports whether v holds no entry (nothing released into it).
func (v vc) empty() bool { return v.d == nil && len(v.over) == 0 }

func (v vc) get(g strategy.GID) uint32 {
	for _, e := range v.over {
		if e.g == g {
			return e.c
		}
	}
	if v.d != nil && int(g) < len(v.d.v) {
		return v.d.v[g]
	}
	return 0
}

// set raises v's entry for g to c (c is above it).
func (v *vc) set(g strategy.GID, c uint32) {
	if !v.private() {
		for i := range v.over {
			if v.over[i].g == g {
				v.over[i].c = c
				return
			}
		}
		if len(v.over) < vcOverMax {
			if v.over == nil {
				v.over = make([]vcEntry, 0, 2)
			}
			v.over = append(v.over, vcEntry{g, c})
			return
		}
		v.own(int(g) + 1)
	}
	if int(g) >= len(v.d.v) {
		v.d.v = append(v.d.v, make([]uint32, int(g)+1-len(v.d.v))...)
	}
	old := v.d.v[g]
	v.d.v[g] = c
	v.d.changed(int(g), old)
}

// own gives v a private dense part of at least n entries, with the entries
// over the shared one folded in.
func (v *vc) own(n int) {
	for _, e := range v.over {
		n = max(n, int(e.g)+1)
	}
	var old []uint32
	if v.d != nil {
		old = v.d.v
	}
	vcFullPasses.Add(1)
	d := &vcDense{v: make([]uint32, max(n, len(old)))}
	copy(d.v, old)
	if v.d != nil && v.d.shared {
		d.from = v.d
	}
	for _, e := range v.over {
		prev := d.v[e.g]
		d.v[e.g] = e.c
		d.changed(int(e.g), prev)
	}
	v.d, v.over = d, nil
}

func (v *vc) join(o vc) {
	io := v.io || o.io
	v.joinClock(o)
	v.io = io
}

// publish joins v into m (a release). When v already covers m (a mutex's
// holder joined it at Lock, and nobody released into it since), the join
// is v itself: m becomes a copy of v that shares its dense part, in O(1)
// instead of a pass over v's entries, and an acquirer that joined that
// dense part before skips it (remember).
func (m *vc) publish(v *vc) {
	if !m.coveredBy(v) {
		m.join(*v)
		return
	}
	io, room := m.io || v.io, m.over
	*m = v.cloneInto(room)
	m.io = io
}

// coveredBy reports, without a pass over the dense parts, whether every
// entry of m is at most v's.
func (m *vc) coveredBy(v *vc) bool {
	if m.d != nil && !v.covers(m.d) {
		return false
	}
	for _, e := range m.over {
		if v.get(e.g) < e.c {
			return false
		}
	}
	return true
}

func (v *vc) joinClock(o vc) {
	if v.empty() {
		*v = o.clone() // a fresh object's clock shares the first releaser's
		return
	}
	if o.d != nil && len(o.d.v) > 0 && !v.covers(o.d) {
		if v.adopt(o) {
			return // o's entries over its dense part came with it
		}
		if !v.joinDelta(o.d) {
			v.joinDense(o.d)
		}
		v.remember(o.d)
	}
	// o's own entries are at least its dense part's (clocks only grow).
	for _, e := range o.over {
		if e.c > v.get(e.g) {
			v.set(e.g, e.c)
		}
	}
}

// joinDense joins dense part od into v by a pass over it.
func (v *vc) joinDense(od *vcDense) {
	vcFullPasses.Add(1)
	if !v.private() {
		// Few entries of od above v's stay over v's dense part; more
		// make it private.
		room, n := vcOverMax-len(v.over), 0
		for i, x := range od.v {
			if v.below(i, x) {
				if n++; n > room {
					break
				}
			}
		}
		if n > room {
			v.own(len(od.v))
		} else if n > 0 {
			for i, x := range od.v {
				if v.below(i, x) {
					v.set(strategy.GID(i), x)
				}
			}
		}
	}
	if v.private() {
		if len(od.v) > len(v.d.v) {
			v.d.v = append(v.d.v, make([]uint32, len(od.v)-len(v.d.v))...)
		}
		d := v.d
		for i, x := range od.v {
			if x > d.v[i] {
				d.changed(i, d.v[i])
				d.v[i] = x
			}
		}
	}
}

// adopt joins o into v by sharing o's dense part, when that part already
// holds every entry of v's (o covers it) and is shared: v becomes o with
// v's entries over it, without a pass. Goroutines that take a mutex one
// after another each hold a clock that covers the previous holder's
// (moby/locker's TestLockerConcurrency: 10,000 goroutines, each Lock a
// pass over all of them).
func (v *vc) adopt(o vc) bool {
	if v.private() || !o.d.shared || v.d != nil && !o.covers(v.d) {
		return false
	}
	old, mine := v.d, v.over
	v.d, v.over = o.d, overEntries(o.over)
	for _, e := range mine {
		if e.c > v.get(e.g) {
			v.set(e.g, e.c)
		}
	}
	if old != nil {
		v.remember(old)
	}
	return true
}

// joinDelta joins o's dense part into v through its delta, when v covers
// the part it was copied from.
func (v *vc) joinDelta(od *vcDense) bool {
	f := od.from
	if f == nil || od.deltaLost || !v.covers(f) {
		return false
	}
	for _, i := range od.delta {
		if x := od.v[i]; v.below(int(i), x) {
			v.set(strategy.GID(i), x)
		}
	}
	return true
}

// below reports whether v's entry for GID i is below x: the dense part
// answers most cases without a look at the entries over it (which are
// never below it).
func (v *vc) below(i int, x uint32) bool {
	if x == 0 || v.d != nil && i < len(v.d.v) && x <= v.d.v[i] {
		return false
	}
	return x > v.get(strategy.GID(i))
}

func (v *vc) tick(g strategy.GID) { v.set(g, v.get(g)+1) }

// clone is a copy of v that shares its dense part: both copy it before
// writing it.
func (v *vc) clone() vc { return v.cloneInto(nil) }

// cloneInto is clone with its entries over the dense part copied into
// room when it is large enough: an object's clock that each release
// replaces (an atomic stored in a loop) keeps its slice instead of
// allocating one a release, which code counting its own allocations
// (testing.AllocsPerRun around a connection's write) would see. room must
// belong to the clock being replaced: over slices are never shared
// between clocks (every copy goes through overEntries).
func (v *vc) cloneInto(room []vcEntry) vc {
	if v.d != nil && !v.d.shared {
		v.d.shared = true
		v.d.id = vcDenseIDs.Add(1)
	}
	over := room[:0]
	if cap(room) >= len(v.over) {
		over = append(over, v.over...)
	} else {
		over = overEntries(v.over)
	}
	return vc{d: v.d, over: over, io: v.io, joined: v.joined}
}

// entries is the memory v holds, in entries (tests).
func (v vc) entries() int {
	n := len(v.over)
	if v.private() {
		n += len(v.d.v)
	}
	return n
}

// Slots: a goroutine's entry in vector clocks is a slot, not its GID, and
// a slot is reused once its holder has ended and the new goroutine's parent
// has seen everything it did (its last access, its last release). The new
// holder's entries start above the old one's, so an entry still means "saw
// the slot up to here", and a clock that saw the new holder saw all of the
// old one. A test that starts a goroutine per loop iteration (testify's
// EventuallyWithT: one per tick, 100,000 in a run) then keeps clocks as
// wide as the goroutines alive at once, not as all it ever started: each
// start copied its parent's clock of 100,000 entries. Reports name
// goroutines by path (epoch.path), which stays exact.

// freeSlot is a slot whose holder ended, and that holder's last entry there.
type freeSlot struct {
	slot strategy.GID
	last uint32
}

// slotLook is how many freed slots takeSlot tries, most recent first.
const slotLook = 4

// takeSlot is a slot for a goroutine whose clock starts from parent's (nil:
// from nothing), and the entry the slot's previous holder left there.
func (r *raceState) takeSlot(parent *vc) (strategy.GID, uint32) {
	if parent != nil {
		for i := len(r.free) - 1; i >= 0 && i >= len(r.free)-slotLook; i-- {
			if f := r.free[i]; parent.get(f.slot) >= f.last {
				r.free[i] = r.free[len(r.free)-1]
				r.free = r.free[:len(r.free)-1]
				return f.slot, f.last
			}
		}
	}
	r.slots++
	return strategy.GID(r.slots - 1), 0
}

// freeSlot gives ended g's slot to later goroutines, unless g waited for
// real (its races are never reported: realWaiters). Every release ticks the
// releaser's entry, so its current entry was published only if g accessed
// memory with it since.
func (r *raceState) freeSlot(g *gstate) {
	if r.realWaiters[g.slot] {
		return
	}
	last := g.vc.get(g.slot)
	if g.accessAt != last {
		last--
	}
	r.free = append(r.free, freeSlot{g.slot, last})
}

// epoch is one access: goroutine (its slot), its clock then, where, and
// what. It holds no pointers (the site by id, the goroutine by GID), so
// that recording one costs no write barrier and a variable's lists stay
// small: strings here were a third of the cost of a plain access's record.
type epoch struct {
	g    strategy.GID // clock slot
	c    uint32
	site uint32       // e.mem.siteID
	gid  strategy.GID // the goroutine (pathOf)
	kind accessKind
	io   bool // the goroutine's clock had seen real I/O (vc.io)
}

// accessKind says what an access was, for reports.
type accessKind uint8

const (
	plainRead accessKind = iota
	plainWrite
	atomicLoad  // sync/atomic Load: acquires, reads
	atomicStore // sync/atomic Store: releases, writes
	atomicRMW   // Add, Swap, CompareAndSwap, And, Or: both
	wgAdd       // WaitGroup.Add from zero (-race: a read of the WaitGroup's semaphore)
	wgWait      // WaitGroup.Wait that blocks, by its first waiter (-race: a write of it)
	atomicCAS   // CompareAndSwap: an atomicRMW for the detector; only the hook tells it apart (spin.go)
)

func (k accessKind) String() string {
	return [...]string{"read", "write", "atomic load", "atomic store", "atomic read-modify-write",
		"WaitGroup.Add from zero", "WaitGroup.Wait"}[k]
}

type raceVar struct {
	w     epoch
	hasW  bool
	reads []epoch
	atomR []epoch // sync/atomic loads of the variable since the last plain write
	atomW []epoch // sync/atomic stores and read-modify-writes since the last plain write
	ix    *epochIndex
	// foreign: the address is not Go's memory (goMemory): not watched.
	foreign bool
}

// epochIndex finds a goroutine's epoch in a raceVar's lists once they are
// long (epochIndexAt): a variable read by thousands of goroutines between
// two writes made every read a pass over the list.
type epochIndex struct{ reads, atomR, atomW map[strategy.GID]int32 }

const epochIndexAt = 32

// forget empties the lists after a plain write.
func (v *raceVar) forget() {
	v.reads = v.reads[:0]
	v.atomR = v.atomR[:0]
	v.atomW = v.atomW[:0]
	v.ix = nil
}

// setEpoch records now as its goroutine's latest access in list, through
// *idx (one of v.ix's maps) once the list is long.
func (v *raceVar) setEpoch(list []epoch, now epoch, idx func(*epochIndex) *map[strategy.GID]int32) []epoch {
	if v.ix != nil {
		if m := idx(v.ix); *m != nil {
			if i, ok := (*m)[now.g]; ok {
				list[i] = now
				return list
			}
			(*m)[now.g] = int32(len(list))
			return append(list, now)
		}
	}
	for i := range list {
		if list[i].g == now.g {
			list[i] = now
			return list
		}
	}
	list = append(list, now)
	if len(list) >= epochIndexAt {
		if v.ix == nil {
			v.ix = &epochIndex{}
		}
		m := make(map[strategy.GID]int32, 2*len(list))
		for i, x := range list {
			m[x.g] = int32(i)
		}
		*idx(v.ix) = m
	}
	return list
}

func readsIdx(x *epochIndex) *map[strategy.GID]int32 { return &x.reads }
func atomRIdx(x *epochIndex) *map[strategy.GID]int32 { return &x.atomR }
func atomWIdx(x *epochIndex) *map[strategy.GID]int32 { return &x.atomW }

type chanClocks struct {
	items        []vc // clocks of the values in the buffer, oldest first, from items[head]
	head         int
	spare        [][]vcEntry // entry slices of clocks dropped, for the next copies (recycle)
	recvs        map[int]vc  // clock of the k-th receive, until the (k+C)-th send takes it
	nsend, nrecv int
	closed       vc
	// mixed: a goroutine outside control used the channel in this run.
	// Its operations interleave with the model's bookkeeping in any order,
	// so value-by-value edges are lost; every operation then acquires and
	// releases all, the clock of every earlier one (only races are hidden
	// so, none invented).
	mixed bool
	all   vc
}

// mix turns c into a mixed channel's clocks.
func (c *chanClocks) mix() {
	if c.mixed {
		return
	}
	c.mixed = true
	for _, it := range c.items[c.head:] {
		c.all.join(it)
	}
	for _, r := range c.recvs {
		c.all.join(r)
	}
	c.all.join(c.closed)
	c.items, c.head, c.recvs = nil, 0, map[int]vc{}
}

// A channel's clocks are copies made and dropped at every buffered send and
// receive; the slices of entries of those dropped are kept (a few) for the
// next copies, so that a connection's loop passing values through a
// buffered channel allocates nothing per value (pion/ice's "does not
// allocate" test counted one a round trip).

// copyOf is a copy of clk, its entries in a recycled slice if one is kept.
func (c *chanClocks) copyOf(clk *vc) vc {
	var room []vcEntry
	if n := len(c.spare); n > 0 {
		room, c.spare = c.spare[n-1], c.spare[:n-1]
	}
	return clk.cloneInto(room)
}

// recycle keeps the entries of a clock c no longer holds.
func (c *chanClocks) recycle(clk vc) {
	if cap(clk.over) > 0 && len(c.spare) < 4 {
		c.spare = append(c.spare, clk.over[:0])
	}
}

// push queues a copy of clk, the clock of the value just buffered.
func (c *chanClocks) push(clk *vc) {
	if len(c.items) == cap(c.items) && c.head > 0 && c.head >= len(c.items)/2 {
		n := copy(c.items, c.items[c.head:])
		clear(c.items[n:])
		c.items, c.head = c.items[:n], 0
	}
	c.items = append(c.items, c.copyOf(clk))
}

// pop takes the clock of the oldest buffered value.
func (c *chanClocks) pop() (vc, bool) {
	if c.head == len(c.items) {
		return vc{}, false
	}
	it := c.items[c.head]
	c.items[c.head] = vc{}
	if c.head++; c.head == len(c.items) {
		c.items, c.head = c.items[:0], 0
	}
	return it, true
}

// outsideChan: a goroutine outside control completed an operation on h,
// or is about to (acquire false: it only releases what it knows). Such
// goroutines share one clock, race.outside: a token passed through a
// server's goroutine from one controlled goroutine to another orders them
// (the channel lock of arl/statsviz's fake network was reported as a race
// between two dialers). e.mu is not held.
func (e *engine) outsideChan(h *hchan, acquire bool) {
	if h == nil || !e.active.Load() {
		return
	}
	e.mu.Lock()
	if e.race.on && e.byGoid.get(goid()) == nil { // not a controlled one in plain mode (AllocsPerRun)
		c := e.chanClocksOf(h)
		c.mix()
		if acquire {
			e.race.outside.join(c.all)
		}
		c.all.join(e.race.outside)
	}
	e.mu.Unlock()
}

// plainChan: a controlled goroutine in plain mode (AllocsPerRun) sends on
// h (before the send) or has received from it. Its operation is not in the
// model, but the clocks of h's buffered values are a queue that every
// send and receive must move: without it, a controlled sender's clocks
// piled up, one a value the plain receiver took (memory that grew with the
// runs), and the next controlled receiver acquired an older value's clock
// than its own (a race that is not).
func (e *engine) plainChan(h *hchan, send bool) {
	if h == nil || !e.active.Load() {
		return
	}
	e.mu.Lock()
	// Only a channel the model has clocks for: one made and used in plain
	// mode alone (a channel per measured call) would cost the model's
	// bookkeeping of a fresh channel, about ten allocations, each call.
	if g := e.byGoid.get(goid()); g != nil && g.plain && e.race.on && e.race.chans[h] != nil {
		e.chanSync(g, h, send, nil)
	}
	e.mu.Unlock()
}

// outsideRelease: a goroutine outside control released p (a WaitGroup's
// Done, an Unlock; read: an RUnlock). Such goroutines share one clock,
// race.outside, as on mixed channels: p now carries it, so that a
// controlled goroutine's past that one of them received reaches the next
// acquirer of p. e.mu is held.
func (e *engine) outsideRelease(p unsafe.Pointer, read bool) {
	if !e.race.on {
		return
	}
	if read {
		e.race.robj(p).join(e.race.outside)
	} else {
		e.race.obj(p).join(e.race.outside)
	}
}

// outsideAcquire: a goroutine outside control acquired p (a Lock, a
// WaitGroup's Wait that returned). e.mu is held.
func (e *engine) outsideAcquire(p unsafe.Pointer, read bool) {
	if !e.race.on {
		return
	}
	e.race.outside.join(*e.race.obj(p))
	if !read {
		e.race.outside.join(*e.race.robj(p))
	}
}

// outsideCaller tells whether the caller is a goroutine outside control in
// a run with race detection.
func (e *engine) outsideCaller() bool {
	if !e.active.Load() {
		return false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.race.on && e.byGoid.get(goid()) == nil
}

type raceState struct {
	scratch []vcEntry // chanSync's copy of a clock's entries, reused
	on      bool
	objs    byAddr[vc]         // sync objects: mutexes, WaitGroups, Onces, pooled values (a boxed constant lies outside the heap)
	robjs   byObject[byte, vc] // RWMutex read-unlock clocks
	// atoms are the clocks of sync/atomic's variables: an atomic may live
	// outside Go's heap (a shared memory mapping).
	atoms byAddr[vc]
	chans map[*hchan]*chanClocks
	// outside is what goroutines outside control know, together: what
	// they acquired on mixed channels (chanClocks.mixed).
	outside vc
	seen    map[[2]string]bool // reported pairs of sites
	// realWaiters are the goroutines that waited for real (a pipe, a
	// socket) in this run: they are ordered with others by
	// synchronisation Period does not see (io.Pipe's channels), which
	// -race sees, so none of their races is reported (realWait).
	realWaiters map[strategy.GID]bool // by slot
	slots       int                   // slots handed out in this run
	free        []freeSlot            // slots whose holders ended, latest last
	bubbleEnded vc                    // the clocks of the goroutines that ended in a synctest bubble (SynctestWait)
	// stacks holds, per access site, the stack of the first access seen
	// there (in any run): one runtime.Callers per site, so that a report can
	// show a call path to the earlier access too.
	// It is indexed by site id (memState.siteID, stable for the process):
	// a map by site string, looked up at every access, was an eighth of a
	// table test's time.
	stacks []siteStack
}

// raceVars holds race detection's per-address state in chunks, found by
// the index that the address's sharing record keeps (addrInfo.race): one
// look-up of a fresh address serves both, where a table of its own cost a
// second map look-up and insertion per line of fresh memory (rtree's
// goroutines each building large trees: docs/scale.md). Chunks are reused
// from run to run, and a variable's first read has its room beside it,
// so first touches of fresh memory cost no allocation each.
type raceVars struct {
	chunks [][]raceVar
	reads  [][]epoch
	n      uint32 // variables handed out since the last drop
}

const raceVarChunk = 512

// at is variable i.
func (t *raceVars) at(i uint32) *raceVar { return &t.chunks[i/raceVarChunk][i%raceVarChunk] }

// add makes a fresh variable for the memory at p and returns its index.
func (t *raceVars) add(p unsafe.Pointer) uint32 {
	i := t.n
	c, k := int(i/raceVarChunk), i%raceVarChunk
	if c == len(t.chunks) {
		t.chunks = append(t.chunks, make([]raceVar, raceVarChunk))
		t.reads = append(t.reads, make([]epoch, raceVarChunk))
	}
	t.chunks[c][k] = raceVar{reads: t.reads[c][k : k : k+1], foreign: !goMemory(p)}
	t.n++
	return i
}

// drop forgets every variable (their records were dropped: memState.forget).
func (t *raceVars) drop() { t.n = 0 }

// trim lets chunks beyond keep go at the start of a run, as memState.reset
// does with its records.
func (t *raceVars) trim(keep int) {
	t.drop()
	if len(t.chunks) > keep {
		clear(t.chunks[keep:])
		t.chunks, t.reads = t.chunks[:keep], t.reads[:keep]
	}
}

// raceVarOf is the race state of the memory at p, whose sharing record is
// info. e.mu is held.
func (e *engine) raceVarOf(info *addrInfo, p unsafe.Pointer) *raceVar {
	if info.race == 0 {
		info.race = e.mem.vars.add(p) + 1
	}
	return e.mem.vars.at(info.race - 1)
}

// raceVarAt is the race state of the memory at p for an access that is
// no plain read or write (an atomic, a WaitGroup's): its record claims no
// owner. e.mu is held.
func (e *engine) raceVarAt(p unsafe.Pointer) *raceVar {
	info, _ := e.mem.info(p, noOwner)
	return e.raceVarOf(info, p)
}

type siteStack struct {
	path string // goroutine
	pcs  []uintptr
}

func (r *raceState) reset(on bool) {
	seen, stacks := r.seen, r.stacks
	ctxDoneClocks.mu.Lock()
	ctxDoneClocks.on, ctxDoneClocks.m = on, byObject[hchan, ctxClock]{}
	ctxDoneClocks.mu.Unlock()
	*r = raceState{on: on, objs: byAddr[vc]{}, robjs: byObject[byte, vc]{}, atoms: byAddr[vc]{},
		chans: map[*hchan]*chanClocks{}, seen: seen, stacks: stacks,
		realWaiters: map[strategy.GID]bool{}}
	if r.seen == nil {
		r.seen = map[[2]string]bool{}
	}
}

func (r *raceState) obj(p unsafe.Pointer) *vc { return r.objs.get(p, newVC) }

func (r *raceState) robj(p unsafe.Pointer) *vc { return r.robjs.get((*byte)(p), newVC) }

func newVC() *vc { return new(vc) }

// realWait: g is blocked for real in code Period does not see (a read of
// an io.Pipe, a net.Conn); whoever wakes it may be ordered with it through
// synchronisation that -race sees and Period does not. e.mu is held.
func (e *engine) realWait(g *gstate) {
	if e.race.on {
		e.race.realWaiters[g.slot] = true
		g.vc.io = true
	}
}

// acquire: g's later events happen after the object's releases.
func (e *engine) acquire(g *gstate, p unsafe.Pointer) {
	if e.race.on {
		g.vc.join(*e.race.obj(p))
	}
}

// release: the object carries g's past to later acquirers.
func (e *engine) release(g *gstate, p unsafe.Pointer) {
	if e.race.on {
		e.race.obj(p).publish(&g.vc)
		g.vc.tick(g.slot)
	}
}

// acqRel is a sequentially consistent operation (sync/atomic, sync.Map).
func (e *engine) acqRel(g *gstate, p unsafe.Pointer) {
	if e.race.on {
		o := e.race.obj(p)
		g.vc.join(*o)
		o.publish(&g.vc)
		g.vc.tick(g.slot)
	}
}

func (e *engine) rRelease(g *gstate, p unsafe.Pointer) {
	if e.race.on {
		e.race.robj(p).publish(&g.vc)
		g.vc.tick(g.slot)
	}
}

func (e *engine) rAcquire(g *gstate, p unsafe.Pointer) {
	if e.race.on {
		g.vc.join(*e.race.robj(p))
	}
}

func (e *engine) chanClocksOf(h *hchan) *chanClocks {
	c := e.race.chans[h]
	if c == nil {
		c = &chanClocks{recvs: map[int]vc{}}
		e.race.chans[h] = c
	}
	return c
}

// chanSync records the happens-before edges of g's operation on h, which is
// about to complete. partner is the goroutine of an unbuffered rendezvous.
func (e *engine) chanSync(g *gstate, h *hchan, send bool, partner *gstate) {
	if !e.race.on || h == nil {
		return
	}
	c := e.race.chans[h]
	if c == nil {
		c = e.chanClocksOf(h)
		// Values already buffered when the model meets h (put in an
		// earlier run: a channel kept in a package variable, zstd's pool
		// of encoders) carry no clock of this run. They are the oldest:
		// without a place in the queue, a receive of one took the clock
		// of a value sent after it, and the values' clocks went to the
		// wrong receivers (races between goroutines that handed an
		// encoder over properly, in badger's tables).
		for i := uint(0); i < h.qcount; i++ {
			c.items = append(c.items, vc{})
		}
	}
	if partner != nil {
		// Unbuffered: each side happens before the other's completion.
		// mine is a scratch copy (joins copy what they keep), its
		// entries in a buffer kept for the next rendezvous.
		mine := g.vc.cloneInto(e.race.scratch)
		g.vc.join(partner.vc)
		partner.vc.join(mine)
		e.race.scratch = mine.over
		g.vc.tick(g.slot)
		partner.vc.tick(partner.slot)
		return
	}
	if h.dataqsiz == 0 && h.closed == 0 {
		c.mix() // an unbuffered rendezvous with a goroutine outside control
	}
	if c.mixed {
		g.vc.join(c.all)
		if !send && h.qcount == 0 && h.closed != 0 {
			if x := ctxDoneClocks.lookup(h); x != nil {
				g.vc.join(x.get())
			}
		}
		c.all.join(g.vc)
		g.vc.tick(g.slot)
		return
	}
	if send {
		if h.closed != 0 {
			return
		}
		c.nsend++
		if k := c.nsend - int(h.dataqsiz); k > 0 {
			if rc, ok := c.recvs[k]; ok {
				g.vc.join(rc)
				delete(c.recvs, k)
				c.recycle(rc)
			}
		}
		if h.dataqsiz > 0 {
			c.push(&g.vc)
		}
		g.vc.tick(g.slot)
		return
	}
	if h.qcount == 0 && h.closed != 0 {
		g.vc.join(c.closed)
		if x := ctxDoneClocks.lookup(h); x != nil {
			// Closed by the cancellation of a virtual context.
			g.vc.join(x.get())
		}
		return
	}
	if it, ok := c.pop(); ok {
		g.vc.join(it)
		c.recycle(it)
	}
	c.nrecv++
	if h.dataqsiz > 0 {
		c.recvs[c.nrecv] = c.copyOf(&g.vc)
	}
	g.vc.tick(g.slot)
}

func (e *engine) chanClose(g *gstate, h *hchan) {
	if e.race.on && h != nil {
		c := e.chanClocksOf(h)
		c.closed = g.vc.clone()
		if c.mixed {
			c.all.join(g.vc)
		}
		g.vc.tick(g.slot)
	}
}

// callerG is the controlled goroutine calling, or nil. e.mu is held.
func (e *engine) callerG() *gstate {
	g := e.byGoid.get(goid())
	if g == nil || g.status == gDone || g.abort || e.finished {
		return nil
	}
	return g
}

// releaseClock is a release by g to an object that carries one clock (a
// timer, a cancellation): g's clock now; g moves on. e.mu is held.
func (e *engine) releaseClock(g *gstate) vc {
	if !e.race.on || g == nil {
		return vc{}
	}
	c := g.vc.clone()
	g.vc.tick(g.slot)
	return c
}

// acquireClock joins clk into the calling goroutine's clock.
func (e *engine) acquireClock(clk vc) {
	if !e.active.Load() {
		return
	}
	e.mu.Lock()
	if g := e.callerG(); g != nil && e.race.on {
		g.vc.join(clk)
	}
	e.mu.Unlock()
}

// timerSent: the virtual clock put a value carrying clk (the timer's
// setter's clock) into the buffer of a timer channel.
func (e *engine) timerSent(ch chan time.Time, clk vc) {
	if !e.race.on {
		return
	}
	c := e.chanClocksOf(chanOf(ch))
	c.nsend++
	delete(c.recvs, c.nsend-cap(ch))
	c.push(&clk)
}

// timerDrained: Stop or Reset took the undelivered value out of a timer channel.
func (e *engine) timerDrained(ch chan time.Time) {
	if !e.race.on {
		return
	}
	c := e.chanClocksOf(chanOf(ch))
	if it, ok := c.pop(); ok {
		c.recycle(it)
	}
	c.nrecv++
}

// timerStart: the goroutine of an AfterFunc starts after the timer was set
// (clk), not after whatever its creator did since; a slot whose previous
// holder clk does not cover goes back for a new one.
func (e *engine) timerStart(g *gstate, clk vc) {
	if e.race.on {
		if clk.get(g.slot) < g.floor {
			e.race.free = append(e.race.free, freeSlot{g.slot, g.floor})
			g.slot, g.floor = e.race.takeSlot(nil)
		}
		g.vc = clk.clone()
		g.vc.tick(g.slot)
	}
}

// ctxDones maps the Done channels of virtual contexts to their cancellers'
// clocks. A context makes its channel when Done is first called, as the
// context package does, by a goroutine that may not hold e.mu: the map
// has a lock of its own.
var ctxDoneClocks ctxDones

type ctxDones struct {
	mu sync.Mutex
	on bool // race detection is on in this run
	m  byObject[hchan, ctxClock]
}

func (d *ctxDones) lookup(h *hchan) *ctxClock {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m.lookup(h)
}

// register records the Done channel c has just made.
func (d *ctxDones) register(c *vctx, done chan struct{}) {
	d.mu.Lock()
	if d.on {
		cc := c.cc
		d.m.get(chanOf(done), func() *ctxClock { return cc })
	}
	d.mu.Unlock()
}

// checkAccess looks for a race between g's access at site and earlier
// accesses to the same variable that do not happen before it. kind is a
// plain read or write, or one of the WaitGroup accesses (wgAccess).
func (e *engine) checkAccess(g *gstate, v *raceVar, site uint32, kind accessKind) {
	if v.foreign {
		return
	}
	now := epoch{g: g.slot, c: g.vc.get(g.slot), site: site, gid: g.id, kind: kind, io: g.vc.io}
	g.accessAt = now.c
	if kind == plainRead && len(v.atomW) == 0 && len(v.reads) > 0 && v.reads[len(v.reads)-1] == now {
		// FastTrack's same-epoch read: g read the address last, at this
		// site, with no release of its own since, and no write came
		// between (a plain write empties the lists; an atomic one would
		// be in atomW). The check against the last write found then
		// what it would find now (a clock never loses what it has
		// joined): nothing to check or record (a cipher's S-boxes, read
		// tens of millions of times a hash).
		return
	}
	e.firstStack(g, site)
	write := kind == plainWrite || kind == wgWait
	if v.hasW && v.w.g != g.slot && v.w.c > g.vc.get(v.w.g) {
		e.raceFound(v.w, now)
	}
	// As under -race, an atomic store or read-modify-write races with a
	// plain read and a plain write; an atomic load only with a plain write.
	e.firstRace(v.atomW, g.vc, now)
	if write {
		e.firstRace(v.reads, g.vc, now)
		e.firstRace(v.atomR, g.vc, now)
		v.w, v.hasW = now, true
		v.forget()
		return
	}
	v.reads = v.setEpoch(v.reads, now, readsIdx)
}

// firstStack records the stack of g's access at site (an id) if it is
// the site's first (stacks). e.mu is held.
func (e *engine) firstStack(g *gstate, site uint32) {
	r := &e.race
	if int(site) < len(r.stacks) && r.stacks[site].path != "" {
		return
	}
	if int(site) >= len(r.stacks) {
		r.stacks = append(r.stacks, make([]siteStack, int(site)+1-len(r.stacks))...)
	}
	r.stacks[site] = siteStack{path: g.path, pcs: callers()}
}

// atomicAccess is a sync/atomic operation on p by g: its happens-before
// edges as -race annotates them (a load acquires, a store releases, the
// others do both) and its check against plain accesses of p. The access
// itself is in the clock that a store releases.
func (e *engine) atomicAccess(g *gstate, p unsafe.Pointer, site string, kind accessKind) {
	if kind != atomicStore {
		g.vc.join(*e.race.atom(p))
	}
	v := e.raceVarAt(p)
	if v.foreign {
		// Not watched for races, but an atomic in C's memory (a
		// reference count) still orders what goroutines do around it.
		if kind != atomicLoad {
			e.race.atom(p).publish(&g.vc)
			g.vc.tick(g.slot)
		}
		return
	}
	id := e.mem.siteID(site)
	now := epoch{g: g.slot, c: g.vc.get(g.slot), site: id, gid: g.id, kind: kind, io: g.vc.io}
	g.accessAt = now.c
	if v.hasW || len(v.reads) > 0 {
		// Mixed plain and atomic accesses: only then can the site appear in a report.
		e.firstStack(g, id)
	}
	if v.hasW && v.w.g != g.slot && v.w.c > g.vc.get(v.w.g) {
		e.raceFound(v.w, now)
	}
	if kind == atomicLoad {
		v.atomR = v.setEpoch(v.atomR, now, atomRIdx)
		return
	}
	e.firstRace(v.reads, g.vc, now)
	v.atomW = v.setEpoch(v.atomW, now, atomWIdx)
	e.race.atom(p).publish(&g.vc)
	g.vc.tick(g.slot)
}

// atom is the clock of the atomic variable at p.
func (r *raceState) atom(p unsafe.Pointer) *vc {
	return r.atoms.get(p, newVC)
}

// wgAccess is what -race sees of a WaitGroup: the Add that takes the
// counter from zero reads its semaphore, the first Wait that blocks writes
// it, so that an Add concurrent with a blocked Wait (or with a Wait that has
// not returned yet, when the WaitGroup is reused) is a race between the two.
func (e *engine) wgAccess(g *gstate, wg unsafe.Pointer, site string, kind accessKind) {
	if e.race.on {
		// Not the WaitGroup's own address (the key of its happens-before
		// clock) but inside it, where no user code reads or writes.
		e.checkAccess(g, e.raceVarAt(unsafe.Add(wg, 1)), e.mem.siteID(site), kind)
	}
}

// firstRace reports the first access in list that races with cur and whose
// pair of sites was not reported yet.
func (e *engine) firstRace(list []epoch, view vc, cur epoch) {
	for _, r := range list {
		if r.g != cur.g && r.c > view.get(r.g) && e.raceFound(r, cur) {
			return
		}
	}
}

// callers is the stack of the calling goroutine, PCs only (cheap).
func callers() []uintptr {
	pcs := make([]uintptr, 32)
	return pcs[:runtime.Callers(3, pcs)]
}

// formatPCs renders a stack recorded by callers like userStack does.
func formatPCs(pcs []uintptr) string {
	var b strings.Builder
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if f.Function != "" && !isPeriodFrame(f.Function) && !strings.HasPrefix(f.Function, "runtime.") {
			fmt.Fprintf(&b, "    %s(...)\n    \t%s:%d\n", f.Function, f.File, f.Line)
		}
		if !more {
			break
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// raceFound reports a race between the earlier access prev and the current
// one, unless that pair of sites was reported already; it reports whether it
// reported.
func (e *engine) raceFound(prev, cur epoch) bool {
	// A goroutine that waited for real in this run talks through
	// synchronisation Period does not see: where it is ordered with
	// others is unknown, so none of its races is reported; nor are those
	// of accesses made after what such a goroutine did reached them
	// (vc.io): a request a reader took off a socket and handed to a
	// worker may be ordered, through the peer, after what another worker
	// did before answering the previous one (pkg/sftp's request workers,
	// x/crypto/ssh's channel buffers).
	if e.race.realWaiters[prev.g] || e.race.realWaiters[cur.g] || prev.io || cur.io {
		return false
	}
	prevSite, curSite := e.mem.sites.list[prev.site].site, e.mem.sites.list[cur.site].site
	prevPath, curPath := pathOf(prev.gid), pathOf(cur.gid)
	pair := [2]string{prevSite, curSite}
	if pair[1] < pair[0] {
		pair[0], pair[1] = pair[1], pair[0]
	}
	if e.race.seen[pair] { // no allocation on the hot path of a racy loop
		return false
	}
	e.race.seen[pair] = true
	key := pair[0] + "|" + pair[1]
	curWhat, prevWhat := cur.kind.String(), prev.kind.String()
	head := "data race"
	if cur.kind >= wgAdd {
		head = "data race on a sync.WaitGroup (misuse: Add called concurrently with Wait, or the WaitGroup reused before the previous Wait returned)"
	}
	msg := fmt.Sprintf("%s: %s by goroutine g%s at %s\n  and earlier %s by goroutine g%s at %s,\n  with no happens-before order between them\n  stack of the %[2]s (g%[3]s):\n%[8]s",
		head, curWhat, curPath, curSite, prevWhat, prevPath, prevSite, userStack())
	if int(prev.site) < len(e.race.stacks) && len(e.race.stacks[prev.site].pcs) > 0 {
		st := e.race.stacks[prev.site]
		msg += fmt.Sprintf("\n  stack of the earlier %s (as recorded when g%s first reached %s; the path may differ):\n%s",
			prevWhat, st.path, prevSite, formatPCs(st.pcs))
	}
	e.report(bug{kind: "race", message: msg, location: curSite, key: "race|" + key})
	return true
}
