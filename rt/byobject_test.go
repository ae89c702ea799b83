package rt

import (
	"runtime"
	"sync"
	"syscall"
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

var globalCounter int64

// byAddr knows heap objects weakly, like byObject, and keeps globals and
// memory mapped outside Go's heap (where weak.Make is fatal) by address.
func TestByAddrHoldsHeapObjectsWeakly(t *testing.T) {
	m := byAddr[int]{}
	type holder struct {
		p *int
		n int64
	}
	h := &holder{}
	p := unsafe.Pointer(&h.n)
	v := m.get(p, func() *int { return new(int) })
	if m.get(p, func() *int { t.Fatal("made a second value for a live object"); return nil }) != v {
		t.Fatal("a live object's value was not found")
	}
	w := weak.Make(h)
	h, p = nil, nil
	for i := 0; i < 20 && w.Value() != nil; i++ {
		runtime.GC()
	}
	if w.Value() != nil {
		t.Fatal("byAddr kept its heap object alive")
	}

	g := unsafe.Pointer(&globalCounter)
	if gv := m.get(g, func() *int { return new(int) }); m.get(g, nil) != gv {
		t.Fatal("a global's value was not found again")
	}
	mem, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("no anonymous mapping:", err)
	}
	defer syscall.Munmap(mem)
	mp := unsafe.Pointer(&mem[8])
	if inHeap(uintptr(mp)) {
		t.Fatal("mapped memory taken for Go's heap")
	}
	if mv := m.get(mp, func() *int { return new(int) }); m.get(mp, nil) != mv {
		t.Fatal("mapped memory's value was not found again")
	}
}

// The addresses of one object (atomics at every offset of a parsed
// buffer) share the object's weak pointer: a weak pointer per address
// costs the runtime a linear search per new one (specials of a span), and
// a test's 100,000 such addresses took minutes. Each address keeps its
// own value, and none outlives the object.
func TestByAddrOneWeakPointerPerObject(t *testing.T) {
	m := byAddr[int]{}
	buf := make([]uint32, 1<<16)
	var vals []*int
	for i := range buf {
		vals = append(vals, m.get(unsafe.Pointer(&buf[i]), func() *int { return new(int) }))
	}
	first := m[uintptr(unsafe.Pointer(&buf[0]))].obj
	for i := range buf {
		en := m[uintptr(unsafe.Pointer(&buf[i]))]
		if en.obj != first {
			t.Fatalf("offset %d of the buffer has a weak pointer of its own", i*4)
		}
		if m.get(unsafe.Pointer(&buf[i]), nil) != vals[i] {
			t.Fatalf("offset %d: its value was not found again", i*4)
		}
	}
	w := weak.Make(&buf[0])
	buf = nil
	for i := 0; i < 20 && w.Value() != nil; i++ {
		runtime.GC()
	}
	if w.Value() != nil {
		t.Fatal("byAddr kept the buffer alive")
	}
	for k := range m {
		if m.at(k) != nil {
			t.Fatal("a freed buffer's value is still found at its address")
		}
	}
}

// Values put in a sync.Pool carry their putter's clock to the getter
// (race detection); a boxed constant (a small integer, a string literal,
// an empty struct) points outside Go's heap, where weak.Make is fatal
// (lxzan/gws's TestPool: "getWeakHandle on invalid pointer").
func TestPoolOfValuesOutsideTheHeap(t *testing.T) {
	var p sync.Pool
	got := 0
	runControlledWith(Config{}, &alternate{}, func() {
		for _, x := range []any{1, "literal", struct{}{}, true} {
			PoolPut("put", &p, x)
			if PoolGet("get", &p) != nil {
				got++
			}
		}
	})
	if got == 0 {
		t.Errorf("nothing came back from the pool")
	}
}

// Sync objects may live outside Go's heap: modernc.org/libc allocates the
// memory of SQLite's translated C code itself, sync.Mutex included
// (zombiezen.com/go/sqlite's tests: "getWeakHandle on invalid pointer").
func TestSyncObjectsInMappedMemory(t *testing.T) {
	mem, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("no anonymous mapping:", err)
	}
	defer syscall.Munmap(mem)
	mu := (*sync.Mutex)(unsafe.Pointer(&mem[0]))
	wg := (*sync.WaitGroup)(unsafe.Pointer(&mem[64]))
	n := 0
	runControlledWith(Config{}, &alternate{}, func() {
		WGAdd("add", wg, 2)
		for i := 0; i < 2; i++ {
			Go("go", func() {
				Lock("lock", mu)
				n++
				Unlock("unlock", mu)
				WGDone("done", wg)
			})
		}
		WGWait("wait", wg)
	})
	if n != 2 {
		t.Errorf("the two goroutines counted %d, want 2", n)
	}
}

// Memory outside the heap can be freed with a mutex in it locked and
// allocated again, zeroed: Go finds that mutex free, and so does the model
// (zombiezen.com/go/sqlite's unlock notes: a false deadlock before). The
// mark it keeps in the mutex's semaphore word meanwhile is gone after.
func TestMutexInReallocatedMemory(t *testing.T) {
	mem, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("no anonymous mapping:", err)
	}
	defer syscall.Munmap(mem)
	mu := (*sync.Mutex)(unsafe.Pointer(&mem[0]))
	var marked, relocked bool
	runControlledWith(Config{}, &alternate{}, func() {
		Lock("lock", mu)
		marked = *(*uint32)(unsafe.Pointer(&mem[semaOffset])) != 0
		clear(mem[:64]) // freed, allocated again
		Lock("lock again", mu)
		Unlock("unlock", mu)
		relocked = true
	})
	if !marked || !relocked {
		t.Errorf("marked %v, locked again %v: want both", marked, relocked)
	}
	if w := *(*uint32)(unsafe.Pointer(&mem[semaOffset])); w != 0 {
		t.Errorf("the mark %#x stayed in the mutex", w)
	}
	var heapMu sync.Mutex
	runControlledWith(Config{}, &alternate{}, func() {
		Lock("lock", &heapMu)
		marked = *(*uint32)(unsafe.Add(unsafe.Pointer(&heapMu), semaOffset)) != 0
		Unlock("unlock", &heapMu)
	})
	if marked {
		t.Error("a mutex of Go's heap was marked")
	}
}

// A run that ends with a mutex held in memory that was unmapped meanwhile
// ends cleanly: the mark is not looked for there.
func TestMutexHeldInUnmappedMemory(t *testing.T) {
	mem, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("no anonymous mapping:", err)
	}
	mu := (*sync.Mutex)(unsafe.Pointer(&mem[0]))
	runControlledWith(Config{}, &alternate{}, func() {
		Lock("lock", mu)
		syscall.Munmap(mem)
	})
	eng.mu.Lock()
	eng.models.reset()
	eng.mu.Unlock()
}
