package rt

import (
	"testing"
	"unsafe"
)

// The estimate of Period's own records that decides a collection between
// runs counts the race variables' lines (one array of lineBytes pointers
// each), not only an entry per variable: a sparse buffer's first touches
// cost a whole line each.
func TestOwnHeapCountsRaceLines(t *testing.T) {
	var e engine
	const n = 64
	buf := make([]byte, n*lineBytes)
	for i := range n {
		e.race.newVar(unsafe.Pointer(&buf[i*lineBytes]))
	}
	if got, lines := e.ownHeap(), uint64(n*unsafe.Sizeof(varLine{})); got < lines {
		t.Errorf("ownHeap = %d bytes for %d race variables on %d lines, want at least the lines' %d", got, n, n, lines)
	}
	// A clear keeps the room (Go maps do not shrink): the estimate stays.
	before := e.ownHeap()
	e.race.vars.clear()
	if after := e.ownHeap(); after < before*3/4 {
		t.Errorf("ownHeap fell from %d to %d bytes after a clear", before, after)
	}
}
