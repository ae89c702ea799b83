//go:build go1.21

package rt

import (
	"runtime"
	"sort"
	"unsafe"

	"github.com/period-dev/period/strategy"
)

// Shared-memory accesses are key points only where they can matter: at an
// address that another goroutine already touched in this run, or at a site
// that was seen touching shared memory in an earlier run. The learned site set
// only grows and is part of every replay file, so runs stay reproducible while
// goroutine-local data costs no scheduling points.

// addrInfo is what a run knows of an address: its first goroutine and the
// sites that goroutine touched it at, until another goroutine touches it.
// It holds no pointers (sites are ids of m.sites), and the map from
// addresses holds indices, not pointers: code that touches millions of
// fresh addresses (a parser in a dependency) gives the collector nothing to
// scan.
type addrInfo struct {
	owner strategy.GID // noOwner: only atomics and WaitGroups touched it so far
	multi bool
	n     uint8                 // sites recorded
	sites [maxOwnerSites]uint32 // the owner's sites until the address becomes shared
	race  uint32                // index in memState.vars plus one (0: no race state yet)
}

// noOwner is the owner of a record made for race detection alone (an
// atomic's): the first plain access makes its goroutine the owner.
const noOwner strategy.GID = -1

const maxOwnerSites = 8

type memState struct {
	// Addresses are found by their line of lineBytes: lines maps a line's
	// first address to its index in lineChunks, whose slots hold, by
	// offset, an index in infos. A loop over a buffer or an array meets a
	// new line every lineBytes bytes, not a new map key every byte
	// (docs/scale.md: two map look-ups per access were half the time of a
	// test that fills megabytes beside another goroutine).
	lines      map[uintptr]uint32
	lineChunks [][]memLine // chunks of lineChunk, reused from run to run
	nlines     uint32
	linesAt    int          // the most entries lines has held: a cleared map keeps its room (ownHeap)
	infos      [][]addrInfo // chunks of infoChunk, reused from run to run
	ninfo      uint32
	shared     map[string]bool // sites known to touch shared memory, fixed for the run
	learned    map[string]bool // sites found in this run; they join shared at the next run
	frozen     bool            // replay: the site set comes from the replay file
	// keep holds the memory each record describes, so that the collector
	// gives none of its addresses to a new object while the record lasts:
	// a fresh object there, touched by another goroutine than the old
	// one's, looked shared, and where the collection fell differs from
	// process to process (replays of a 10-million-step schedule diverged
	// with -race=false; race detection's records hold theirs already).
	keep []unsafe.Pointer

	recent    [256]recentLine // a direct-mapped cache in front of lines
	sites     siteTab         // site strings to small ids
	sharedIDs []uint8         // by site id: 0 not looked up in this run, 1 not shared, 2 shared
	vars      raceVars        // race detection's state of the addresses, by addrInfo.race
}

// lineBytes is the size of a line of addresses (memState.lines); lineChunk
// lines are allocated at once.
const (
	lineBytes = 32
	lineChunk = 1024
)

// memLine holds, by offset in its line, an address's index in infos plus
// one (0: no record). No pointers: the collector has nothing to scan.
type memLine [lineBytes]uint32

// recentLine caches a line's index (plus one) in lineChunks: a loop over
// the same fields or the next bytes of a buffer skips the map.
type recentLine struct {
	base uintptr
	idx  uint32
}

// infoChunk addrInfos are allocated at once: one allocation per infoChunk
// addresses, so that code that counts its own allocations
// (testing.AllocsPerRun around writes to fresh memory, as a cache filling
// its buffer) sees almost none of Period's.
const infoChunk = 4096

// info returns the addrInfo of addr, made owned by owner if addr is new.
// e.mu is held.
func (m *memState) info(p unsafe.Pointer, owner strategy.GID) (*addrInfo, bool) {
	addr := uintptr(p)
	base := addr &^ (lineBytes - 1)
	r := &m.recent[(base/lineBytes^base>>12)%uintptr(len(m.recent))]
	if r.base != base || r.idx == 0 {
		li, ok := m.lines[base]
		if !ok {
			li = m.newLine()
			m.lines[base] = li
		}
		*r = recentLine{base, li + 1}
	}
	slot := &m.lineChunks[(r.idx-1)/lineChunk][(r.idx-1)%lineChunk][addr-base]
	if *slot != 0 {
		i := *slot - 1
		info := &m.infos[i/infoChunk][i%infoChunk]
		if info.owner == noOwner {
			info.owner = owner
		}
		return info, false
	}
	if m.ninfo == maxAddrs {
		m.forget()
		return m.info(p, owner)
	}
	i := m.ninfo
	if int(i/infoChunk) == len(m.infos) {
		m.infos = append(m.infos, make([]addrInfo, infoChunk))
	}
	m.ninfo++
	*slot = i + 1
	m.keep = append(m.keep, p)
	info := &m.infos[i/infoChunk][i%infoChunk]
	*info = addrInfo{owner: owner}
	return info, true
}

// newLine takes a line with no record from the chunks.
func (m *memState) newLine() uint32 {
	i := m.nlines
	if int(i/lineChunk) == len(m.lineChunks) {
		m.lineChunks = append(m.lineChunks, make([]memLine, lineChunk))
	}
	m.lineChunks[i/lineChunk][i%lineChunk] = memLine{}
	m.nlines++
	return i
}

// maxAddrs bounds the addresses a run keeps records of (about 60 bytes
// each, map entry included): an interpreter's test touched 25 million in
// one schedule, 1.5 GB. Past it the records start over: an address one
// goroutine touched before is then new to the next, and a sharing that
// only that pair shows is missed until another goroutine touches it; sites
// already known to be shared stay so.
const maxAddrs = 1 << 20

// forget drops every address record of the run (maxAddrs).
func (m *memState) forget() {
	m.linesAt = max(m.linesAt, len(m.lines))
	clear(m.lines)
	m.nlines = 0
	m.ninfo = 0
	clear(m.recent[:])
	clear(m.keep)
	m.keep = m.keep[:0]
	m.vars.drop() // their indices were in the records
}

// siteID interns a site; sites are constant strings of the instrumented
// source, so this is usually a look-up by the string's address.
func (m *memState) siteID(site string) uint32 { return m.sites.id(0, site) }

// isShared reports whether site is in the run's shared set.
func (m *memState) isShared(id uint32, site string) bool {
	if int(id) >= len(m.sharedIDs) {
		m.sharedIDs = append(m.sharedIDs, make([]uint8, int(id)+1-len(m.sharedIDs))...)
	}
	switch m.sharedIDs[id] {
	case 1:
		return false
	case 2:
		return true
	}
	v := m.shared[site]
	m.sharedIDs[id] = 1
	if v {
		m.sharedIDs[id] = 2
	}
	return v
}

// learn marks the sites the owner recorded, and site, as touching shared
// memory.
func (m *memState) learn(info *addrInfo, site string) {
	for _, id := range info.sites[:info.n] {
		m.learned[m.sites.list[id].site] = true
	}
	m.learned[site] = true
	info.n = 0
}

// note records that the owner touched the address at site (consecutive
// repeats once, at most maxOwnerSites).
func (info *addrInfo) note(id uint32) {
	if info.n < maxOwnerSites && (info.n == 0 || info.sites[info.n-1] != id) {
		info.sites[info.n] = id
		info.n++
	}
}

// reset starts a run; what the previous run learned takes effect now, never
// in the middle of a run, so that a run is reproduced by its starting set.
func (m *memState) reset() {
	m.lines = map[uintptr]uint32{}
	m.linesAt = 0
	m.nlines = 0
	m.ninfo = 0
	clear(m.keep)
	m.keep = m.keep[:0]
	clear(m.recent[:])
	if len(m.infos) > 16 {
		m.infos = m.infos[:16] // keep 64k addresses' room, let the rest go
	}
	if len(m.lineChunks) > 16 {
		m.lineChunks = m.lineChunks[:16]
	}
	m.vars.trim(128)
	if m.shared == nil {
		m.shared = map[string]bool{}
	}
	if !m.frozen {
		for s := range m.learned {
			m.shared[s] = true
		}
	}
	m.learned = map[string]bool{}
	clear(m.sharedIDs)
}

func (m *memState) sharedSites() []string {
	s := make([]string, 0, len(m.shared))
	for k := range m.shared {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

func (e *engine) access(site string, p unsafe.Pointer, write bool) {
	if id := e.soloGoid.Load(); id != 0 && goid() == id && !e.soloShared(site) {
		// The test goroutine has computed alone for long (a parser, a
		// generator's loops): nothing can race with this access, nobody
		// spins on it, and the site is no key point. Nothing is recorded
		// for the address either: a goroutine started later touches it
		// first as its own (README, known limits). m.shared is only
		// written between runs.
		e.soloPlain.Store(e.soloPlain.Load() + 1) // one writer: no locked add
		return
	}
	e.accessKeyPoint(site, p, write)
}

// accessKeyPoint is access past the path of the goroutine alone: apart,
// so that the short path pays no frame of the long one.
func (e *engine) accessKeyPoint(site string, p unsafe.Pointer, write bool) {
	g, md := e.enter()
	if md != modeControl {
		return
	}
	if onStack(p) {
		// The goroutine's own stack (hidden): no other goroutine can
		// reach it. Checked after enter, which counts a detached
		// goroutine's hooks (busy, not hung), as for any access.
		e.plainAccesses++
		e.mu.Unlock()
		return
	}
	kind := plainRead
	if write {
		kind = plainWrite
	}
	addr := uintptr(p)
	m := &e.mem
	owner := e.soloOwner(g)
	info, _ := m.info(p, owner)
	if !info.multi && info.owner != owner {
		info.multi = true
		m.learn(info, site)
	}
	id := m.siteID(site)
	if !info.multi && !m.isShared(id, site) {
		e.plainAccesses++
		if e.solo.Load() {
			if e.soloSeen++; e.soloSeen >= soloRecordLimit && e.soloGoid.Load() == 0 {
				e.soloSites = [len(e.soloSites)]soloSite{}
				e.soloGoid.Store(g.goid)
			}
		}
		if write {
			e.wrote(addr)
		}
		if e.race.on && !e.solo.Load() {
			// While the test goroutine (and the subtests it waits for)
			// is the run's only thread of control, nothing can race with
			// its accesses (goroutines started later happen after them):
			// a long sequential test (a million map and tree operations)
			// keeps no race state per address.
			e.checkAccess(g, e.raceVarOf(info, p), id, kind)
		}
		info.note(id)
		e.mu.Unlock()
		return
	}
	op := strategy.OpRead
	if write {
		op = strategy.OpWrite
	}
	g.p = pending{op: op, site: site, obj: addr}
	e.point(g)
	if write {
		e.wrote(addr) // the decision that ran this write counted it as g's effect
	} else {
		e.polled(g, addr)
	}
	if e.race.on {
		// Looked up again: while others ran, the records may have been
		// dropped (maxAddrs) and info's slot given to another address.
		info, _ := m.info(p, owner)
		e.checkAccess(g, e.raceVarOf(info, p), id, kind)
	}
	e.mu.Unlock()
}

// soloSite caches, by the address of a site string's bytes (a constant
// of the rewritten code), whether the site is known shared: the path of
// the test goroutine alone (access) looked every access up in a map by
// string, 7 % of a compression test's time (andybalholm/brotli).
type soloSite struct {
	p      *byte
	n      int
	shared bool
}

// soloShared is e.mem.shared[site] through e.soloSites. Only the solo
// goroutine uses the cache, and it clears it when the path starts (the
// site set does not change during a run).
func (e *engine) soloShared(site string) bool {
	p := unsafe.StringData(site)
	c := &e.soloSites[(uintptr(unsafe.Pointer(p))>>3)%uintptr(len(e.soloSites))]
	if c.p == p && c.n == len(site) && p != nil {
		return c.shared
	}
	sh := e.mem.shared[site]
	*c = soloSite{p, len(site), sh}
	return sh
}

// soloRecordLimit is how many plain accesses of the test goroutine, alone
// in its run, are recorded before the rest take the path without
// bookkeeping (access). Short set-up phases, and every program of bench/,
// stay well below it, so their schedules do not change.
const soloRecordLimit = 1 << 20

// R is the key point before a read of *p; it returns p. The address goes
// to the engine hidden from escape analysis (hidden), so that a variable
// whose address only R and W take stays on the stack, as under go test.
func R[T any](site string, p *T) *T {
	if eng.active.Load() {
		eng.access(site, hidden(unsafe.Pointer(p)), false)
	}
	return p
}

// W is the key point before a write of *p; it returns p.
func W[T any](site string, p *T) *T {
	if eng.active.Load() {
		eng.access(site, hidden(unsafe.Pointer(p)), true)
	}
	return p
}

func mapAddr[M any](m *M) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(m)) }

// MapR is the key point before reading an element of m; it returns m.
func MapR[M ~map[K]V, K comparable, V any](site string, m M) M {
	if eng.active.Load() && m != nil {
		eng.access(site, mapAddr(&m), false)
	}
	return m
}

// MapW is the key point before writing (or deleting) an element of m; it returns m.
func MapW[M ~map[K]V, K comparable, V any](site string, m M) M {
	if eng.active.Load() && m != nil {
		eng.access(site, mapAddr(&m), true)
	}
	return m
}

// Atomic is the key point before a sync/atomic read-modify-write operation
// (Add, Swap, CompareAndSwap, And, Or) on p (a pointer); it returns p.
func Atomic[P any](site string, p P) P { return atomicOp(site, p, atomicRMW) }

// AtomicLoad is the key point before a sync/atomic Load on p; it returns p.
func AtomicLoad[P any](site string, p P) P { return atomicOp(site, p, atomicLoad) }

// AtomicCAS is the key point before a sync/atomic CompareAndSwap on p; it
// returns p. The rewriter passes the swap's result to CASDone.
func AtomicCAS[P any](site string, p P) P { return atomicOp(site, p, atomicCAS) }

// CASDone receives the result of the CompareAndSwap whose key point was the
// caller's last AtomicCAS, and returns it: a swap that succeeded is an
// effect (and wakes the spinners on its address), one that failed only
// looked (spin.go).
func CASDone(swapped bool) bool {
	e := eng
	if !e.active.Load() {
		return swapped
	}
	g, md := e.enter()
	if md == modeControl {
		if at := g.casAt; at != 0 && swapped {
			e.effect()
			g.acted()
			e.wrote(at)
		}
		g.casAt = 0
		e.mu.Unlock()
	}
	return swapped
}

// AtomicStore is the key point before a sync/atomic Store on p; it returns p.
func AtomicStore[P any](site string, p P) P { return atomicOp(site, p, atomicStore) }

// AtomicAfter, AtomicStoreAfter and AtomicCASAfter are the key points of
// Atomic, AtomicStore and AtomicCAS placed in the operation's last argument
// that runs code, a, so that they come after its evaluation, as the
// operation itself does (v.Store(build())); they return a. A load has no
// argument besides its pointer: AtomicLoad needs no such form.
func AtomicAfter[A, P any](site string, p P, a A) A { atomicOp(site, p, atomicRMW); return a }

func AtomicStoreAfter[A, P any](site string, p P, a A) A { atomicOp(site, p, atomicStore); return a }

func AtomicCASAfter[A, P any](site string, p P, a A) A { atomicOp(site, p, atomicCAS); return a }

func atomicOp[P any](site string, p P, kind accessKind) P {
	e := eng
	if !e.active.Load() {
		return p
	}
	g, md := e.enter()
	if md == modeControl {
		ptr := *(*unsafe.Pointer)(unsafe.Pointer(&p))
		e.keyPoint(g, strategy.OpAtomic, site, ptr)
		switch kind {
		case atomicLoad:
			e.polled(g, uintptr(ptr))
		case atomicCAS:
			// A poll unless it succeeds: CASDone says.
			e.polled(g, uintptr(ptr))
			g.casAt = uintptr(ptr)
			kind = atomicRMW // as -race annotates it, success or not
		default:
			e.effect()
			g.acted()
			e.wrote(uintptr(ptr))
		}
		if e.race.on {
			e.atomicAccess(g, ptr, site, kind)
		}
		e.mu.Unlock()
	}
	return p
}

// ReadMemStats is runtime.ReadMemStats(m), without the heap that Period's
// records of the run's memory accesses hold (their estimate, ownHeap): a
// test that bounds or compares its heap sees closer to its own use. The
// garbage the collector lets pile up because of them (its goal is a
// multiple of the live heap, theirs included) is still counted: yuin/
// gopher-lua's tests, run with a 40 MB limit (18 MB at most under go
// test), still pass it (README, known limits).
func ReadMemStats(m *runtime.MemStats) {
	runtime.ReadMemStats(m)
	OwnHeapOut(m)
}

// OwnHeapOut takes the heap of Period's records out of m, just read by
// runtime.ReadMemStats (ReadMemStats).
func OwnHeapOut(m *runtime.MemStats) {
	e := eng // active or not: the records stay until the next run (a poller left running after a run reads them)
	e.mu.Lock()
	own := e.ownHeap()
	e.mu.Unlock()
	for _, x := range []*uint64{&m.Alloc, &m.HeapAlloc, &m.HeapInuse} {
		*x -= min(*x, own)
	}
}

// ownHeap estimates the bytes the run's address and race-detection records
// hold: their blocks, and maps at the most entries they held (a cleared
// map keeps its room). e.mu is held.
func (e *engine) ownHeap() uint64 {
	const mapEntry = 32 // a map's bytes per entry, its spare room included
	n := uint64(len(e.mem.infos)) * infoChunk * uint64(unsafe.Sizeof(addrInfo{}))
	n += uint64(len(e.mem.lineChunks)) * lineChunk * uint64(unsafe.Sizeof(memLine{}))
	n += uint64(max(len(e.mem.lines), e.mem.linesAt)) * mapEntry
	return n + uint64(len(e.mem.vars.chunks))*raceVarChunk*uint64(unsafe.Sizeof(raceVar{})+unsafe.Sizeof(epoch{}))
}
