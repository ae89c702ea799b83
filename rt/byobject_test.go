package rt

import (
	"runtime"
	"sync"
	"testing"
	"unsafe"
	"weak"
)

// A value kept by byObject does not keep its object alive, and is found
// again while the object lives.
func TestByObjectHoldsObjectsWeakly(t *testing.T) {
	m := byObject[sync.Mutex, int]{}
	type holder struct { // big enough not to share a tiny allocation
		p  *int
		mu sync.Mutex
	}
	h := &holder{}
	mu := &h.mu
	v := m.get(mu, func() *int { return new(int) })
	*v = 7
	if got := m.get(mu, func() *int { t.Fatal("made a second value for a live object"); return nil }); got != v {
		t.Fatal("a live object's value was not found")
	}
	if m.lookup(mu) != v || m.at(uintptr(unsafe.Pointer(mu))) != v {
		t.Fatal("lookup and at must find the live object's value")
	}
	w := weak.Make(h)
	h, mu = nil, nil
	for i := 0; i < 20 && w.Value() != nil; i++ {
		runtime.GC()
	}
	if w.Value() != nil {
		t.Fatal("byObject kept its object alive")
	}
	for k := range m {
		if m.at(k) != nil {
			t.Fatal("a dead object's value is still found at its address")
		}
	}
}
