//go:build go1.24

package rt

import (
	"unsafe"
	"weak"
)

// byObject maps the program's objects (a mutex, a WaitGroup) to what the
// engine keeps about them, by address and knowing each object only
// weakly: a model must not keep its object alive (a test that waits for a
// finalizer, a runtime.AddCleanup or a weak pointer after the object's
// last use), and an address the collector has given to a new object maps
// to a fresh value. Only for objects of Go's heap or globals: weak.Make
// fails fatally on other memory (a shared memory mapping), where no sync
// object lives but atomics may (byAddr).
type byObject[T, V any] map[uintptr]objEntry[T, V]

type objEntry[T, V any] struct {
	obj weak.Pointer[T]
	v   *V
}

// get returns p's value, made by fresh if p has none yet.
func (m byObject[T, V]) get(p *T, fresh func() *V) *V {
	k := uintptr(unsafe.Pointer(p))
	if en, ok := m[k]; ok && en.obj.Value() == p {
		return en.v
	}
	v := fresh()
	m[k] = objEntry[T, V]{weak.Make(p), v}
	return v
}

// lookup returns p's value, or nil.
func (m byObject[T, V]) lookup(p *T) *V {
	if en, ok := m[uintptr(unsafe.Pointer(p))]; ok && en.obj.Value() == p {
		return en.v
	}
	return nil
}

// at returns the value of the live object at address k, or nil.
func (m byObject[T, V]) at(k uintptr) *V {
	if en, ok := m[k]; ok && en.obj.Value() != nil {
		return en.v
	}
	return nil
}

// byAddr is byObject for memory that may lie outside Go's heap (a
// sync/atomic variable in a shared memory mapping, where weak.Make is
// fatal): an address in Go's heap is known weakly, like byObject's; any
// other (a global, mapped memory) is never freed and is kept by address.
type byAddr[V any] map[uintptr]addrEntry[V]

type addrEntry[V any] struct {
	obj  weak.Pointer[byte] // zero outside Go's heap
	heap bool
	v    *V
}

func (m byAddr[V]) get(p unsafe.Pointer, fresh func() *V) *V {
	k := uintptr(p)
	if en, ok := m[k]; ok && (!en.heap || unsafe.Pointer(en.obj.Value()) == p) {
		return en.v
	}
	v := fresh()
	en := addrEntry[V]{heap: inHeap(k), v: v}
	if en.heap {
		en.obj = weak.Make((*byte)(p))
	}
	m[k] = en
	return v
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
