//go:build go1.21

package rt

import (
	"sort"
	"unsafe"

	"github.com/period-dev/period/strategy"
)

// Shared-memory accesses are key points only where they can matter: at an
// address that another goroutine already touched in this run, or at a site
// that was seen touching shared memory in an earlier run. The learned site set
// only grows and is part of every replay file, so runs stay reproducible while
// goroutine-local data costs no scheduling points.

type addrInfo struct {
	owner strategy.GID
	multi bool
	sites []string // the owner's sites until the address becomes shared (at most a few)
}

type memState struct {
	addrs   map[uintptr]*addrInfo
	shared  map[string]bool // sites known to touch shared memory, fixed for the run
	learned map[string]bool // sites found in this run; they join shared at the next run
	frozen  bool            // replay: the site set comes from the replay file

	// The first touch of an address takes its addrInfo, and room for its
	// first sites, from these blocks: one allocation per addrInfoBlock
	// addresses, not two per address, so that code that counts its own
	// allocations (testing.AllocsPerRun around writes to fresh memory, as a
	// cache filling its buffer) sees almost none of Period's.
	infoBlock []addrInfo
	siteBlock []string
}

const addrInfoBlock = 512

// newInfo returns a zeroed addrInfo owned by owner, whose sites have room
// for two sites (a write and a read) before they grow. e.mu is held.
func (m *memState) newInfo(owner strategy.GID) *addrInfo {
	if len(m.infoBlock) == 0 {
		m.infoBlock = make([]addrInfo, addrInfoBlock)
		m.siteBlock = make([]string, 2*addrInfoBlock)
	}
	info := &m.infoBlock[0]
	info.owner = owner
	info.sites = m.siteBlock[0:0:2]
	m.infoBlock, m.siteBlock = m.infoBlock[1:], m.siteBlock[2:]
	return info
}

// reset starts a run; what the previous run learned takes effect now, never
// in the middle of a run, so that a run is reproduced by its starting set.
func (m *memState) reset() {
	m.addrs = map[uintptr]*addrInfo{}
	if m.shared == nil {
		m.shared = map[string]bool{}
	}
	if !m.frozen {
		for s := range m.learned {
			m.shared[s] = true
		}
	}
	m.learned = map[string]bool{}
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
	g, md := e.enter()
	if md != modeControl {
		return
	}
	kind := plainRead
	if write {
		kind = plainWrite
	}
	addr := uintptr(p)
	m := &e.mem
	info := m.addrs[addr]
	if info == nil {
		info = m.newInfo(g.id)
		m.addrs[addr] = info
	} else if !info.multi && info.owner != g.id {
		info.multi = true
		for _, s := range info.sites {
			m.learned[s] = true
		}
		m.learned[site] = true
		info.sites = nil
	}
	if !info.multi && !m.shared[site] {
		e.plainAccesses++
		if write {
			e.wrote(addr)
		}
		if e.race.on && !e.solo.Load() {
			// While the test goroutine is the only one the run has had,
			// nothing can race with its accesses (goroutines started
			// later happen after them): a long sequential test (a million
			// map and tree operations) keeps no race state per address.
			e.checkAccess(g, p, site, kind)
		}
		if len(info.sites) < 8 && (len(info.sites) == 0 || info.sites[len(info.sites)-1] != site) {
			info.sites = append(info.sites, site)
		}
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
		e.checkAccess(g, p, site, kind)
	}
	e.mu.Unlock()
}

// R is the key point before a read of *p; it returns p.
func R[T any](site string, p *T) *T {
	if eng.active.Load() {
		eng.access(site, unsafe.Pointer(p), false)
	}
	return p
}

// W is the key point before a write of *p; it returns p.
func W[T any](site string, p *T) *T {
	if eng.active.Load() {
		eng.access(site, unsafe.Pointer(p), true)
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
