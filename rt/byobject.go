//go:build go1.24

package rt

import (
	"unsafe"
	"weak"
)

// byObject maps the program's objects (a mutex, a WaitGroup) to what the
// engine keeps about them, by address and knowing each object of Go's heap
// only weakly: a model must not keep its object alive (a test that waits
// for a finalizer, a runtime.AddCleanup or a weak pointer after the
// object's last use), and an address the collector has given to a new
// object maps to a fresh value. Objects outside the heap (globals, and
// memory mapped by the program: modernc.org/libc puts the sync.Mutex of
// SQLite's translated C code in its own allocations) are kept by address,
// as byAddr keeps them: weak.Make is fatal there.
type byObject[T, V any] map[uintptr]addrEntry[V]

// get returns p's value, made by fresh if p has none yet.
func (m byObject[T, V]) get(p *T, fresh func() *V) *V {
	return byAddr[V](m).get(unsafe.Pointer(p), fresh)
}

// lookup returns p's value, or nil.
func (m byObject[T, V]) lookup(p *T) *V { return byAddr[V](m).at(uintptr(unsafe.Pointer(p))) }

// at returns the value of the live object at address k, or nil.
func (m byObject[T, V]) at(k uintptr) *V { return byAddr[V](m).at(k) }

// byAddr is byObject for memory known by address only (a sync/atomic
// variable): an address in Go's heap is known weakly, any other (a global,
// mapped memory) is never freed by the collector and is kept by address.
type byAddr[V any] map[uintptr]addrEntry[V]

type addrEntry[V any] struct {
	obj  weak.Pointer[byte] // the object's start; zero outside Go's heap
	off  uintptr            // the address's offset in the object
	heap bool
	v    *V
}

// live tells whether the entry is for the object now at address k.
func (en addrEntry[V]) live(k uintptr) bool {
	return !en.heap || uintptr(unsafe.Pointer(en.obj.Value()))+en.off == k
}

// get returns p's value, made by fresh if p has none yet. The weak pointer
// is to p's object, not to p: the runtime keeps a handle per pointer in a
// list per span, searched linearly, and the atomics at 100,000 offsets of
// one large buffer (golang.org/x/telemetry's counter file, parsed) made
// each new handle cost a pass over all the others.
func (m byAddr[V]) get(p unsafe.Pointer, fresh func() *V) *V {
	k := uintptr(p)
	if en, ok := m[k]; ok && en.live(k) {
		return en.v
	}
	v := fresh()
	en := addrEntry[V]{v: v}
	if base, _, _ := findObject(k, 0, 0); base != 0 {
		en.heap, en.off = true, k-base
		en.obj = weak.Make((*byte)(unsafe.Add(p, -int(en.off))))
	}
	m[k] = en
	return v
}

// at returns the value of the live object at address k, or nil.
func (m byAddr[V]) at(k uintptr) *V {
	if en, ok := m[k]; ok && en.live(k) {
		return en.v
	}
	return nil
}

// inHeap reports whether p points into a live object of Go's heap.
func inHeap(p uintptr) bool {
	base, _, _ := findObject(p, 0, 0)
	return base != 0
}

// findObject is the runtime's (exported to linkname for existing users,
// go.dev/issue/67401): base is 0 for an address outside the heap's spans.
//
//go:linkname findObject runtime.findObject
func findObject(p, refBase, refOff uintptr) (base uintptr, s unsafe.Pointer, objIndex uintptr)
