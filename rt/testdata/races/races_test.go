// Package races holds racy and race-free twins for every kind of
// synchronisation a race detector must understand. A twin differs from its
// racy sibling only by where the synchronisation sits, so a false positive
// or a missed race shows up as a disagreement. Every program is also run
// natively under `go test -race` (cmd/period's agreement test): both must
// give the same verdict.
//
// Spin loops wait with time.Sleep, not runtime.Gosched: a goroutine spinning
// on Gosched can starve the one it waits for under a priority schedule (a
// hang, not the subject here); a (virtual) sleep lets everybody else run.
package races

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// sink keeps reads from being optimised away.
var sink int

// ---- goroutine start ----

// period:want race
func TestGoStart(t *testing.T) {
	x := 0
	done := make(chan bool)
	go func() { sink = x; done <- true }()
	x = 1
	<-done
}

// period:want none
func TestGoStartFixed(t *testing.T) {
	x := 0
	done := make(chan bool)
	x = 1
	go func() { sink = x; done <- true }()
	<-done
}

// ---- goroutine end via WaitGroup (Done before Wait) ----

// period:want race
func TestWaitGroup(t *testing.T) {
	x := 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); x = 1 }()
	sink = x
	wg.Wait()
}

// period:want none
func TestWaitGroupFixed(t *testing.T) {
	x := 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); x = 1 }()
	wg.Wait()
	sink = x
}

// period:want race
func TestWaitGroupDoneTooEarly(t *testing.T) {
	x := 0
	var wg sync.WaitGroup
	wg.Add(1)
	done := make(chan bool) // joined, so that -race reports the race in this test, not the next
	go func() { wg.Done(); x = 1; done <- true }()
	wg.Wait()
	sink = x
	<-done
}

// ---- unbuffered channel ----

// period:want race
func TestUnbuffered(t *testing.T) {
	x := 0
	_ = x
	ch := make(chan int)
	done := make(chan bool)
	go func() { ch <- 1; x = 1; done <- true }()
	<-ch
	x = 2
	<-done
}

// period:want none
func TestUnbufferedFixed(t *testing.T) {
	x := 0
	_ = x
	ch := make(chan int)
	go func() { x = 1; ch <- 1 }()
	<-ch
	x = 2
}

// The receive of an unbuffered channel happens before its send completes.
// period:want none
func TestUnbufferedRecvBeforeSendCompletes(t *testing.T) {
	x := 0
	_ = x
	ch := make(chan int)
	done := make(chan bool)
	go func() { x = 1; <-ch; done <- true }()
	ch <- 1
	x = 2
	<-done
}

// ---- buffered channel ----

// The same program with a buffer: the send may complete before the receive.
// period:want race
func TestBufferedRecvBeforeSendCompletes(t *testing.T) {
	x := 0
	_ = x
	ch := make(chan int, 1)
	done := make(chan bool)
	go func() { x = 1; <-ch; done <- true }()
	ch <- 1
	x = 2
	<-done
}

// period:want none
func TestBufferedFixed(t *testing.T) {
	x := 0
	_ = x
	ch := make(chan int, 1)
	go func() { x = 1; ch <- 1 }()
	<-ch
	x = 2
}

// The capacity as a semaphore is the only synchronisation between the
// workers: the k-th receive happens before the (k+C)-th send completes.
// period:want none
func TestSemaphore(t *testing.T) {
	x := 0
	sem := make(chan int, 1) // not chan struct{}: -race merges the slots of zero-size elements
	done := make(chan bool, 3)
	for i := 0; i < 3; i++ {
		go func() {
			sem <- 1
			x++
			<-sem
			done <- true
		}()
	}
	for i := 0; i < 3; i++ {
		<-done
	}
}

// A semaphore of capacity 2 lets two workers in at once.
// period:want race
func TestSemaphoreTooWide(t *testing.T) {
	x := 0
	sem := make(chan int, 2) // not chan struct{}: -race merges the slots of zero-size elements
	done := make(chan bool, 3)
	for i := 0; i < 3; i++ {
		go func() {
			sem <- 1
			x++
			<-sem
			done <- true
		}()
	}
	for i := 0; i < 3; i++ {
		<-done
	}
}

// ---- close observed by receive and range ----

// period:want race
func TestClose(t *testing.T) {
	x := 0
	ch := make(chan int)
	done := make(chan bool)
	go func() { close(ch); x = 1; done <- true }()
	<-ch
	sink = x
	<-done
}

// period:want none
func TestCloseFixed(t *testing.T) {
	x := 0
	ch := make(chan int)
	go func() { x = 1; close(ch) }()
	<-ch
	sink = x
}

// period:want race
func TestRange(t *testing.T) {
	x := 0
	ch := make(chan int, 2)
	done := make(chan bool)
	go func() { ch <- 1; close(ch); x = 1; done <- true }()
	for range ch {
	}
	sink = x
	<-done
}

// period:want none
func TestRangeFixed(t *testing.T) {
	x := 0
	ch := make(chan int, 2)
	go func() { ch <- 1; x = 1; close(ch) }()
	for range ch {
	}
	sink = x
}

// ---- sync.Mutex, TryLock ----

// period:want race
func TestMutex(t *testing.T) {
	x := 0
	var mu sync.Mutex
	done := make(chan bool)
	go func() { mu.Lock(); x++; mu.Unlock(); done <- true }()
	x++
	<-done
}

// period:want none
func TestMutexFixed(t *testing.T) {
	x := 0
	var mu sync.Mutex
	done := make(chan bool)
	go func() { mu.Lock(); x++; mu.Unlock(); done <- true }()
	mu.Lock()
	x++
	mu.Unlock()
	<-done
}

// period:want race
func TestTryLock(t *testing.T) {
	x := 0
	var mu sync.Mutex
	done := make(chan bool)
	inc := func() {
		if mu.TryLock() {
			mu.Unlock()
		}
		x++ // outside the lock
	}
	go func() { inc(); done <- true }()
	inc()
	<-done
}

// period:want none
func TestTryLockFixed(t *testing.T) {
	x := 0
	var mu sync.Mutex
	done := make(chan bool)
	inc := func() {
		for !mu.TryLock() {
			time.Sleep(time.Microsecond)
		}
		x++
		mu.Unlock()
	}
	go func() { inc(); done <- true }()
	inc()
	<-done
}

// ---- sync.RWMutex ----

// A write under RLock races with another reader's write.
// period:want race
func TestRWMutex(t *testing.T) {
	x := 0
	var mu sync.RWMutex
	done := make(chan bool)
	go func() { mu.RLock(); x++; mu.RUnlock(); done <- true }()
	mu.RLock()
	sink = x
	mu.RUnlock()
	<-done
}

// Concurrent readers under RLock are not a race; the writer takes Lock.
// period:want none
func TestRWMutexFixed(t *testing.T) {
	x := 0
	var mu sync.RWMutex
	res := make(chan int, 3)
	for i := 0; i < 2; i++ {
		go func() { mu.RLock(); r := x; mu.RUnlock(); res <- r }()
	}
	go func() { mu.Lock(); x++; mu.Unlock(); res <- 0 }()
	mu.RLock()
	r := x
	mu.RUnlock()
	for i := 0; i < 3; i++ {
		r += <-res
	}
	sink = r
}

// period:want race
func TestTryRLock(t *testing.T) {
	x := 0
	var mu sync.RWMutex
	done := make(chan bool)
	go func() {
		for !mu.TryRLock() {
			time.Sleep(time.Microsecond)
		}
		x = 1 // a write under a read lock
		mu.RUnlock()
		done <- true
	}()
	mu.RLock()
	_ = x
	mu.RUnlock()
	<-done
}

// period:want none
func TestTryRLockFixed(t *testing.T) {
	x := 0
	var mu sync.RWMutex
	done := make(chan bool)
	go func() {
		for !mu.TryLock() {
			time.Sleep(time.Microsecond)
		}
		x = 1
		mu.Unlock()
		done <- true
	}()
	for !mu.TryRLock() {
		time.Sleep(time.Microsecond)
	}
	_ = x
	mu.RUnlock()
	<-done
}

// ---- sync.Once ----

// period:want race
func TestOnce(t *testing.T) {
	x := 0
	var once sync.Once
	done := make(chan bool)
	go func() { once.Do(func() { x = 1 }); done <- true }()
	sink = x // without once.Do
	<-done
}

// period:want none
func TestOnceFixed(t *testing.T) {
	x := 0
	var once sync.Once
	done := make(chan bool)
	go func() { once.Do(func() { x = 1 }); sink = x; done <- true }()
	once.Do(func() { x = 1 })
	_ = x
	<-done
}

// ---- sync.Cond ----

// period:want race
func TestCond(t *testing.T) {
	x := 0
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	done := make(chan bool)
	go func() {
		mu.Lock()
		ready = true
		c.Signal()
		mu.Unlock()
		x = 1 // after the signal, outside the lock
		done <- true
	}()
	mu.Lock()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
	sink = x
	<-done
}

// period:want none
func TestCondFixed(t *testing.T) {
	x := 0
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	done := make(chan bool)
	go func() {
		x = 1
		mu.Lock()
		ready = true
		c.Broadcast()
		mu.Unlock()
		done <- true
	}()
	mu.Lock()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
	sink = x
	<-done
}

// ---- sync/atomic ----

// period:want race
func TestAtomicFlag(t *testing.T) {
	x := 0
	var flag int32
	done := make(chan bool)
	go func() { atomic.StoreInt32(&flag, 1); x = 1; done <- true }()
	for atomic.LoadInt32(&flag) == 0 {
		time.Sleep(time.Microsecond)
	}
	sink = x
	<-done
}

// Publication through an atomic flag.
// period:want none
func TestAtomicFlagFixed(t *testing.T) {
	x := 0
	var flag int32
	done := make(chan bool)
	go func() { x = 1; atomic.StoreInt32(&flag, 1); done <- true }()
	for atomic.LoadInt32(&flag) == 0 {
		time.Sleep(time.Microsecond)
	}
	sink = x
	<-done
}

// period:want race
func TestAtomicType(t *testing.T) {
	x := 0
	var ready atomic.Bool
	done := make(chan bool)
	go func() { ready.Store(true); x = 1; done <- true }()
	for !ready.Load() {
		time.Sleep(time.Microsecond)
	}
	sink = x
	<-done
}

// period:want none
func TestAtomicTypeFixed(t *testing.T) {
	x := 0
	var ready atomic.Bool
	done := make(chan bool)
	go func() { x = 1; ready.Store(true); done <- true }()
	for !ready.Load() {
		time.Sleep(time.Microsecond)
	}
	sink = x
	<-done
}

// A plain write and an atomic add of the same variable.
// period:want race
func TestAtomicMixed(t *testing.T) {
	var n int64
	done := make(chan bool)
	go func() { atomic.AddInt64(&n, 1); done <- true }()
	n = 5
	<-done
}

// period:want none
func TestAtomicMixedFixed(t *testing.T) {
	var n int64
	done := make(chan bool)
	n = 5
	go func() { atomic.AddInt64(&n, 1); done <- true }()
	atomic.AddInt64(&n, 1)
	<-done
}

// ---- select ----

// period:want race
func TestSelectDefault(t *testing.T) {
	x := 0
	ch := make(chan bool, 1)
	go func() { x = 1; ch <- true }()
	select {
	case <-ch:
		sink = x
	default:
		sink = x // nothing orders this read after the write
		<-ch
	}
}

// period:want none
func TestSelectFixed(t *testing.T) {
	x, y := 0, 0
	a, b := make(chan bool), make(chan bool)
	go func() { x = 1; a <- true }()
	go func() { y = 1; b <- true }()
	for i := 0; i < 2; i++ {
		select {
		case <-a:
			sink = x
		case <-b:
			sink = y
		}
	}
}

// ---- sync.Map ----

// period:want race
func TestSyncMap(t *testing.T) {
	x := 0
	var m sync.Map
	done := make(chan bool)
	go func() { m.Store("k", 1); x = 1; done <- true }()
	for {
		if _, ok := m.Load("k"); ok {
			break
		}
		time.Sleep(time.Microsecond)
	}
	sink = x
	<-done
}

// period:want none
func TestSyncMapFixed(t *testing.T) {
	x := 0
	var m sync.Map
	done := make(chan bool)
	go func() { x = 1; m.Store("k", 1); done <- true }()
	for {
		if _, ok := m.Load("k"); ok {
			break
		}
		time.Sleep(time.Microsecond)
	}
	sink = x
	<-done
}

// ---- context cancellation ----

// period:want race
func TestContextCancel(t *testing.T) {
	x := 0
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { cancel(); x = 1; done <- true }()
	<-ctx.Done()
	sink = x
	<-done
}

// period:want none
func TestContextCancelFixed(t *testing.T) {
	x := 0
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { x = 1; cancel(); done <- true }()
	<-ctx.Done()
	sink = x
	<-done
}

// Err() seen non-nil orders like Done.
// period:want none
func TestContextErrFixed(t *testing.T) {
	x := 0
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { x = 1; cancel(); done <- true }()
	for ctx.Err() == nil {
		time.Sleep(time.Microsecond)
	}
	sink = x
	<-done
}

// A child context's Done, canceled through its parent.
// period:want none
func TestContextChildFixed(t *testing.T) {
	x := 0
	parent, cancel := context.WithCancel(context.Background())
	ctx, stop := context.WithTimeout(parent, time.Hour)
	defer stop()
	done := make(chan bool)
	go func() { x = 1; cancel(); done <- true }()
	<-ctx.Done()
	sink = x
	<-done
}

// ---- time: sleeping is not synchronisation; timers are ----

// period:want race
func TestSleep(t *testing.T) {
	x := 0
	done := make(chan bool)
	go func() { x = 1; done <- true }()
	time.Sleep(20 * time.Millisecond)
	sink = x
	<-done
}

// period:want none
func TestTimeAfterFixed(t *testing.T) {
	x := 0
	done := make(chan bool, 1)
	go func() { x = 1; done <- true }()
	select {
	case <-done:
		sink = x
	case <-time.After(time.Hour):
	}
}

// The function of AfterFunc runs after the call, not after what follows it.
// period:want race
func TestAfterFunc(t *testing.T) {
	x := 0
	done := make(chan bool)
	time.AfterFunc(time.Millisecond, func() { sink = x; done <- true })
	x = 1
	<-done
}

// period:want none
func TestAfterFuncFixed(t *testing.T) {
	x := 0
	done := make(chan bool)
	x = 1
	time.AfterFunc(time.Millisecond, func() { sink = x; done <- true })
	<-done
}

// A context deadline carries no order from the goroutine that waits for it.
// period:want race
func TestContextDeadline(t *testing.T) {
	x := 0
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	done := make(chan bool)
	go func() { <-ctx.Done(); sink = x; done <- true }()
	x = 1
	<-done
}

// period:want none
func TestContextDeadlineFixed(t *testing.T) {
	x := 0
	x = 1
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	done := make(chan bool)
	go func() { <-ctx.Done(); sink = x; done <- true }()
	<-done
}

// Timer.Reset happens before the tick it schedules is received.
// period:want race
func TestTimerReset(t *testing.T) {
	x := 0
	tm := time.NewTimer(time.Hour)
	done := make(chan bool)
	go func() { <-tm.C; sink = x; done <- true }()
	time.Sleep(time.Millisecond)
	tm.Reset(time.Millisecond)
	x = 1
	<-done
}

// period:want none
func TestTimerResetFixed(t *testing.T) {
	x := 0
	tm := time.NewTimer(time.Hour)
	done := make(chan bool)
	go func() { <-tm.C; sink = x; done <- true }()
	time.Sleep(time.Millisecond)
	x = 1
	tm.Reset(time.Millisecond)
	<-done
}

// A deadline that fires cancels the children (virtual and standard ones).
// period:want none
func TestContextDeadlineChildrenFixed(t *testing.T) {
	x := 1
	parent, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	ctx, stop := context.WithCancel(parent)
	defer stop()
	std, stop2 := context.WithCancelCause(ctx) // a standard cancelCtx below a virtual one
	defer stop2(nil)
	done := make(chan bool)
	go func() { <-std.Done(); sink = x + len(std.Err().Error()); done <- true }()
	<-done
	if c := context.Cause(std); c != context.DeadlineExceeded {
		t.Errorf("Cause = %v, want %v", c, context.DeadlineExceeded)
	}
}

var errStop = errors.New("stop")

// period:want race
func TestContextCause(t *testing.T) {
	x := 0
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan bool)
	go func() { cancel(errStop); x = 1; done <- true }()
	<-ctx.Done()
	sink = x
	<-done
}

// period:want none
func TestContextCauseFixed(t *testing.T) {
	x := 0
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan bool)
	go func() { x = 1; cancel(errStop); done <- true }()
	<-ctx.Done()
	sink = x
	<-done
	if context.Cause(ctx) != errStop || ctx.Err() != context.Canceled {
		t.Errorf("Cause = %v, Err = %v", context.Cause(ctx), ctx.Err())
	}
}

// ---- a channel of objects kept from run to run ----

// A package-level channel holds objects that goroutines take and give back
// (zstd's pool of encoders). The values buffered in an earlier run carry no
// clock of this one; pairing them with the clocks of later sends reported
// races between goroutines that handed an object over properly.

type token struct{ n int }

func filled(n int) chan *token {
	c := make(chan *token, n)
	for i := 0; i < n; i++ {
		c <- new(token)
	}
	return c
}

var keptTokens, keptToken = filled(2), filled(1)

// period:want none
func TestChannelPoolKeptAcrossRuns(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 2; j++ {
				tk := <-keptTokens
				tk.n++
				keptTokens <- tk
			}
		}()
	}
	wg.Wait()
}

// period:want race
func TestChannelPoolKeptAcrossRunsRacy(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tk := <-keptToken
			keptToken <- tk
			tk.n++ // after giving it back
		}()
	}
	wg.Wait()
}

// ---- sync.Pool ----

var bufPool = sync.Pool{New: func() any { return new([]byte) }}

// A pooled buffer reused by another goroutine: Put happens before the Get
// that returns the same value (the race detector's sync.Pool annotations).
// period:want none
func TestPoolReuse(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := bufPool.Get().(*[]byte)
			*b = append((*b)[:0], 'x')
			bufPool.Put(b)
		}()
	}
	wg.Wait()
}

// ---- memory of dead objects ----

// A goroutine's WaitGroups and atomics die, the collector frees them, and
// another goroutine, in no happens-before order with the first, gets their
// memory for its own: new variables, as -race sees them (it forgets an
// address's accesses when the allocator hands it out again). Each
// WaitGroup is released by a worker that runs the closure it was sent, as
// k8s.io/apimachinery's watch.Broadcaster does, so that nothing keeps it;
// the atomics and the plain variables are of one size, so that one's
// memory goes to the other.
// period:want none
func TestDeadObjectsMemoryReused(t *testing.T) {
	done := make(chan bool, 2)
	go useAndDrop(done)
	go useAndDrop(done)
	<-done
	<-done
}

func useAndDrop(done chan bool) {
	n := 0
	work := make(chan func())
	go func() {
		for f := range work {
			f()
		}
	}()
	for i := 0; i < 100; i++ {
		wg := new(sync.WaitGroup)
		c, v := new(atomic.Int64), new(int64)
		wg.Add(1)
		work <- func() {
			c.Add(1)
			*v = c.Load()
			wg.Done()
		}
		wg.Wait()
		n += int(*v - 1)
		waste := make([]byte, 256<<10) // the collector runs now and then
		n += int(waste[i])
	}
	close(work)
	done <- n == 0
}
