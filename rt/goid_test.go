//go:build go1.21

package rt

import (
	"testing"
	"unsafe"
)

func TestGoidMatchesRuntimeStack(t *testing.T) {
	if goidOffset == 0 && haveGetg {
		t.Fatal("goroutine id offset not found: the fast path is disabled")
	}
	for i := 0; i < 20; i++ {
		ch := make(chan [2]int64)
		go func() { ch <- [2]int64{goid(), slowGoid()} }()
		got := <-ch
		if got[0] != got[1] {
			t.Fatalf("goid() = %d, runtime.Stack says %d", got[0], got[1])
		}
	}
}

func BenchmarkGoid(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = goid()
	}
}

// TestStackBoundsKnown: where getg works, the stack's bounds are read from
// the runtime's goroutine descriptor (onStack), and a stack variable is
// told from a heap one.
func TestStackBoundsKnown(t *testing.T) {
	if !haveGetg {
		t.Skip("no getg on this architecture")
	}
	if !stackBoundsOK {
		t.Fatal("the goroutine descriptor's stack bounds are not where rt reads them: stack addresses would be recorded")
	}
	var local [16]byte
	if !onStack(hidden(unsafe.Pointer(&local))) {
		t.Error("a stack variable is not on the stack")
	}
	if onStack(unsafe.Pointer(heapProbe)) {
		t.Error("a heap object is on the stack")
	}
}
