package idioms3

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
	"unique"
	"weak"
)

// resource is big enough and has pointers, so the tiny allocator never packs it.
type resource struct {
	name string
	buf  [64]byte
	next *resource
}

// gcUntil calls runtime.GC until ready is closed or the deadline passes, as real finalizer tests do.
func gcUntil(t *testing.T, ready <-chan struct{}, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		select {
		case <-ready:
			return
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never ran", what)
		}
	}
}

//go:noinline
func newFinalized(done chan<- string) {
	r := &resource{name: "fin"}
	runtime.SetFinalizer(r, func(r *resource) { done <- r.name })
}

// TestSetFinalizerSignalsChannel checks that a finalizer runs after GC and signals a channel with the object's field.
func TestSetFinalizerSignalsChannel(t *testing.T) {
	done := make(chan string, 1)
	newFinalized(done)
	ready := make(chan struct{})
	var got string
	var wg sync.WaitGroup
	wg.Go(func() {
		got = <-done
		close(ready)
	})
	gcUntil(t, ready, "finalizer")
	wg.Wait()
	if got != "fin" {
		t.Fatalf("finalizer saw %q", got)
	}
}

// TestAddCleanupFromGoroutines checks that cleanups attached by several goroutines all run with their own argument.
func TestAddCleanupFromGoroutines(t *testing.T) {
	const n = 8
	ids := make(chan int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := &resource{name: fmt.Sprint(i)}
			runtime.AddCleanup(r, func(id int) { ids <- id }, i)
		})
	}
	wg.Wait()
	seen := make(map[int]bool)
	all := make(chan struct{})
	var cw sync.WaitGroup
	cw.Go(func() {
		for len(seen) < n {
			seen[<-ids] = true
		}
		close(all)
	})
	gcUntil(t, all, "cleanups")
	cw.Wait()
	for i := range n {
		if !seen[i] {
			t.Fatalf("cleanup %d missing", i)
		}
	}
}

// TestWeakPointerSharedAcrossGoroutines checks weak.Pointer.Value from goroutines while the object is alive, and nil after it is collected.
func TestWeakPointerSharedAcrossGoroutines(t *testing.T) {
	strong := &resource{name: "live"}
	wp := weak.Make(strong)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if p := wp.Value(); p == nil || p.name != "live" {
				t.Errorf("weak value %v while alive", p)
			}
		})
	}
	wg.Wait()
	if wp != weak.Make(strong) {
		t.Fatal("weak.Make of the same pointer differs")
	}
	runtime.KeepAlive(strong)
	strong = nil
	deadline := time.Now().Add(5 * time.Second)
	for wp.Value() != nil {
		if time.Now().After(deadline) {
			t.Fatal("weak pointer still set after GC")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// TestUniqueMakeConcurrent checks that unique.Make from many goroutines gives equal handles for equal values.
func TestUniqueMakeConcurrent(t *testing.T) {
	const n = 12
	hs := make([]unique.Handle[string], n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			hs[i] = unique.Make(fmt.Sprintf("key-%d", i%3))
		})
	}
	wg.Wait()
	for i := range n {
		for j := range n {
			if (hs[i] == hs[j]) != (i%3 == j%3) {
				t.Fatalf("handles %d and %d: equal=%v", i, j, hs[i] == hs[j])
			}
		}
		if want := fmt.Sprintf("key-%d", i%3); hs[i].Value() != want {
			t.Fatalf("hs[%d].Value() = %q", i, hs[i].Value())
		}
	}
}
