package races

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ---- range variables under Go 1.21 semantics (this module says go 1.21) ----

// One v for the whole loop: the range statement writes it at each
// iteration while the goroutine of the previous iteration reads it.
// period:want race
func TestRangeLoopVar(t *testing.T) {
	res := make(chan int, 3)
	for _, v := range []int{1, 2, 3} {
		go func() { res <- v }()
	}
	for i := 0; i < 3; i++ {
		sink += <-res
	}
}

// period:want none
func TestRangeLoopVarFixed(t *testing.T) {
	res := make(chan int, 3)
	for _, v := range []int{1, 2, 3} {
		v := v
		go func() { res <- v }()
	}
	for i := 0; i < 3; i++ {
		sink += <-res
	}
}

// The key of a range over a map, likewise.
// period:want race
func TestRangeLoopVarMapKey(t *testing.T) {
	res := make(chan string, 2)
	for k := range map[string]bool{"a": true, "b": true} {
		go func() { res <- k }()
	}
	<-res
	<-res
}

// The variable of a range over a channel, assigned by each receive.
// period:want race
func TestRangeLoopVarChan(t *testing.T) {
	ch := make(chan int, 2)
	ch <- 1
	ch <- 2
	close(ch)
	res := make(chan int, 2)
	for v := range ch {
		go func() { res <- v }()
	}
	<-res
	<-res
}

// ---- plain accesses racing with atomic ones, both orders ----

// A plain read and an atomic store.
// period:want race
func TestAtomicStorePlainRead(t *testing.T) {
	var n int64
	done := make(chan bool)
	go func() { atomic.StoreInt64(&n, 1); done <- true }()
	sink = int(n)
	<-done
}

// The same pair, the plain read in the other goroutine.
// period:want race
func TestPlainReadAtomicStore(t *testing.T) {
	var n int64
	done := make(chan bool)
	go func() { sink = int(n); done <- true }()
	atomic.StoreInt64(&n, 1)
	<-done
}

// A plain write and an atomic load.
// period:want race
func TestAtomicLoadPlainWrite(t *testing.T) {
	var n int64
	done := make(chan bool)
	go func() { sink = int(atomic.LoadInt64(&n)); done <- true }()
	n = 2
	<-done
}

// Reads do not race, atomic or not.
// period:want none
func TestAtomicLoadPlainReadFixed(t *testing.T) {
	n := int64(5)
	done := make(chan bool)
	go func() { sink = int(atomic.LoadInt64(&n)); done <- true }()
	_ = n
	<-done
}

// A value published by an atomic store and read plainly after the load
// that saw it.
// period:want none
func TestAtomicPublishSameVarFixed(t *testing.T) {
	var n int64
	done := make(chan bool)
	go func() { atomic.StoreInt64(&n, 1); done <- true }()
	for atomic.LoadInt64(&n) == 0 {
		time.Sleep(time.Microsecond)
	}
	sink = int(n)
	<-done
}

// Two loads order nothing: only a store (or read-modify-write) releases.
// period:want race
func TestAtomicLoadsDoNotOrder(t *testing.T) {
	x := 0
	var flag int32
	done := make(chan bool)
	go func() { x = 1; atomic.LoadInt32(&flag); done <- true }()
	time.Sleep(time.Millisecond)
	atomic.LoadInt32(&flag)
	sink = x
	<-done
}

// ---- WaitGroup misuse ----

// An Add from zero while a Wait is blocked, not ordered after it: the race
// detector's "Add called concurrently with Wait".
// period:want race
func TestWaitGroupAddDuringWait(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	first := make(chan bool)
	done := make(chan bool)
	go func() { time.Sleep(10 * time.Millisecond); wg.Done(); first <- true }()
	go func() {
		<-first
		time.Sleep(10 * time.Millisecond) // the Wait has returned: no panic, only the race
		wg.Add(1)
		wg.Done()
		done <- true
	}()
	wg.Wait()
	<-done
}

// Reused by the goroutine that waited: ordered after its own Wait.
// period:want none
func TestWaitGroupReuseFixed(t *testing.T) {
	var wg sync.WaitGroup
	for round := 0; round < 2; round++ {
		wg.Add(1)
		go func() { time.Sleep(time.Millisecond); wg.Done() }()
		wg.Wait()
	}
}

// The next round's Add is not ordered after another goroutine's Wait.
// period:want race
func TestWaitGroupReuse(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	done := make(chan bool)
	go func() { wg.Wait(); done <- true }()
	time.Sleep(10 * time.Millisecond) // the goroutine blocks in Wait first
	wg.Done()
	time.Sleep(10 * time.Millisecond) // its Wait returns: no panic, only the race
	wg.Add(1)
	wg.Done()
	<-done
}

// The next round starts once the other waiter said it returned.
// period:want none
func TestWaitGroupReuseOrderedFixed(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	done := make(chan bool)
	go func() { wg.Wait(); done <- true }()
	time.Sleep(10 * time.Millisecond)
	wg.Done()
	<-done
	wg.Add(1)
	wg.Done()
}

// ---- iterating a map reads it ----

// A range over a map while another goroutine sets a key: -race reports
// the iteration's read against the write.
// period:want race
func TestMapRangeVsWrite(t *testing.T) {
	m := map[string]int{"a": 1}
	done := make(chan int)
	go func() {
		n := 0
		for _, v := range m {
			n += v
		}
		done <- n
	}()
	m["b"] = 2
	sink += <-done
}

// period:want none
func TestMapRangeVsWriteFixed(t *testing.T) {
	m := map[string]int{"a": 1}
	var mu sync.Mutex
	done := make(chan int)
	go func() {
		n := 0
		mu.Lock()
		for _, v := range m {
			n += v
		}
		mu.Unlock()
		done <- n
	}()
	mu.Lock()
	m["b"] = 2
	mu.Unlock()
	sink += <-done
}
