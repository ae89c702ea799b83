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
