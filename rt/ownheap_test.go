package rt

import (
	"testing"
	"unsafe"
)

// The estimate of Period's own records that decides a collection between
// runs counts race detection's variables, whose chunks stay allocated
// when the records are dropped (maxAddrs, runtime.GC) and are reused.
func TestOwnHeapCountsRaceVars(t *testing.T) {
	var e engine
	e.mem.reset()
	const n = 2 * raceVarChunk
	buf := make([]byte, n*lineBytes)
	base := e.ownHeap()
	for i := range n {
		e.raceVarAt(unsafe.Pointer(&buf[i*lineBytes]))
	}
	if got, vars := e.ownHeap()-base, uint64(n*unsafe.Sizeof(raceVar{})); got < vars {
		t.Errorf("ownHeap grew by %d bytes for %d race variables, want at least their %d", got, n, vars)
	}
	before := e.ownHeap()
	e.mem.forget()
	if after := e.ownHeap(); after < before*3/4 {
		t.Errorf("ownHeap fell from %d to %d bytes after the records were dropped", before, after)
	}
	// The dropped records' variables are reused, not added to.
	chunks := len(e.mem.vars.chunks)
	for i := range n {
		e.raceVarAt(unsafe.Pointer(&buf[i*lineBytes]))
	}
	if len(e.mem.vars.chunks) != chunks {
		t.Errorf("race variables took %d chunks after a drop, %d before", len(e.mem.vars.chunks), chunks)
	}
}

// A record that race detection makes for an atomic or a WaitGroup has no
// owner: the first plain access makes its goroutine the owner, as if the
// record were new, so atomics change no sharing decision.
func TestAtomicRecordHasNoOwner(t *testing.T) {
	var e engine
	e.mem.reset()
	x := new(int64)
	v := e.raceVarAt(unsafe.Pointer(x))
	info, fresh := e.mem.info(unsafe.Pointer(x), 3)
	if fresh || info.owner != 3 || info.multi {
		t.Fatalf("after an atomic's record, a plain access by G3 found %+v (fresh %v), want it owned by G3", *info, fresh)
	}
	if got := e.raceVarOf(info, unsafe.Pointer(x)); got != v {
		t.Errorf("the plain access found another race variable than the atomic's")
	}
	if info, _ := e.mem.info(unsafe.Pointer(x), 4); info.owner != 3 {
		t.Errorf("a second goroutine's access made G%d the owner, want G3 kept", info.owner)
	}
}
