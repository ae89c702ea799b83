package collect

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"weak"
)

// The finalizer of a counter two goroutines incremented runs once the
// counter is unreachable, as under go test: Period's models of its mutex
// and its shared field must not keep it alive.
func TestFinalizerRuns(t *testing.T) {
	var done atomic.Bool
	func() {
		c := &Counter{}
		for i := 0; i < 2; i++ {
			c.wg.Add(1)
			go func() {
				defer c.wg.Done()
				c.Inc()
			}()
		}
		c.wg.Wait()
		runtime.SetFinalizer(c, func(*Counter) { done.Store(true) })
	}()
	for i := 0; i < 100 && !done.Load(); i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if !done.Load() {
		t.Fatal("the finalizer never ran")
	}
}

// A weak pointer to such a counter is cleared by a collection.
func TestWeakPointerCleared(t *testing.T) {
	c := &Counter{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	w := weak.Make(c)
	c = nil
	for i := 0; i < 20 && w.Value() != nil; i++ {
		runtime.GC()
	}
	if w.Value() != nil {
		t.Fatal("the weak pointer was not cleared")
	}
}

// A cleanup attached to such a counter runs.
func TestCleanupRuns(t *testing.T) {
	ran := make(chan int, 1)
	func() {
		c := &Counter{}
		done := make(chan bool)
		go func() {
			c.Inc()
			done <- true
		}()
		c.Inc()
		<-done
		runtime.AddCleanup(c, func(n int) { ran <- n }, 7)
	}()
	runtime.GC()
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("the cleanup never ran")
	}
}

// A value carried by contexts that were canceled is collected: race
// detection's record of their Done channels must not keep them reachable
// (cristalhq/hedgedhttp's TestMemoryFreedOnBodyClose).
func TestContextValueCollected(t *testing.T) {
	type key struct{}
	var finalized atomic.Int64
	parent, cancelParent := context.WithCancel(context.Background())
	defer cancelParent()
	const n = 20
	for i := 0; i < n; i++ {
		payload := new([1024]byte)
		runtime.SetFinalizer(payload, func(*[1024]byte) { finalized.Add(1) })
		ctx, cancel := context.WithCancel(context.WithValue(parent, key{}, payload))
		done := make(chan bool)
		go func() {
			<-ctx.Done()
			done <- true
		}()
		cancel()
		<-done
	}
	for i := 0; i < 5 && finalized.Load() < n; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := finalized.Load(); got != n {
		t.Fatalf("%d of %d context values finalized", got, n)
	}
}

// A stopped timer the program dropped is collected, with what its
// AfterFunc function holds, and so are a dropped timer and ticker that
// were stopped (xtaci/kcp-go's deadlines).
func TestStoppedTimersAreCollected(t *testing.T) {
	c := &Counter{}
	tm := time.AfterFunc(time.Hour, func() { c.Inc() })
	tm.Stop()
	wc, wt := weak.Make(c), weak.Make(tm)
	nt := time.NewTimer(time.Hour)
	nt.Stop()
	tk := time.NewTicker(time.Hour)
	tk.Stop()
	wn, wk := weak.Make(nt), weak.Make(tk)
	c, tm, nt, tk = nil, nil, nil, nil
	retry := time.NewTicker(10 * time.Millisecond)
	defer retry.Stop()
	for i := 0; i < 100 && (wc.Value() != nil || wt.Value() != nil || wn.Value() != nil || wk.Value() != nil); i++ {
		runtime.GC()
		<-retry.C
	}
	if wc.Value() != nil || wt.Value() != nil || wn.Value() != nil || wk.Value() != nil {
		t.Fatalf("still reachable: AfterFunc's object %v, its timer %v, timer %v, ticker %v",
			wc.Value() != nil, wt.Value() != nil, wn.Value() != nil, wk.Value() != nil)
	}
}
