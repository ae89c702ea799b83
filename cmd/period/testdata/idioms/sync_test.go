// Package idioms has the standard library's concurrency primitives used
// as real suites use them, each test asserting what Go guarantees: every
// test passes under go test -race, and must get no verdict under any
// strategy.
package idioms

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestTimerChanIsSynchronous(t *testing.T) {
	tm := time.NewTimer(time.Millisecond)
	if cap(tm.C) != 0 || len(tm.C) != 0 {
		t.Fatalf("cap %d len %d", cap(tm.C), len(tm.C))
	}
	time.Sleep(5 * time.Millisecond)
	if len(tm.C) != 0 {
		t.Fatalf("len %d after expiry", len(tm.C))
	}
	tm.Reset(time.Hour)
	select {
	case <-tm.C:
		t.Fatal("stale value after Reset")
	default:
	}
}

func TestTimerStopAfterExpiryNoValue(t *testing.T) {
	tm := time.NewTimer(time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	tm.Stop()
	select {
	case <-tm.C:
		t.Fatal("value after Stop")
	case <-time.After(10 * time.Millisecond):
	}
}

func TestWaitGroupGo(t *testing.T) {
	var wg sync.WaitGroup
	var n atomic.Int32
	for i := 0; i < 5; i++ {
		wg.Go(func() { n.Add(1) })
	}
	wg.Wait()
	if n.Load() != 5 {
		t.Fatal(n.Load())
	}
}

func TestGoexitRunsDefers(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	done := false
	go func() {
		defer wg.Done()
		defer func() { done = true }()
		runtime.Goexit()
	}()
	wg.Wait()
	if !done {
		t.Fatal("defer not run")
	}
}

func TestNilChannelCaseNeverChosen(t *testing.T) {
	var nilc chan int
	c := make(chan int, 1)
	c <- 1
	for i := 0; i < 3; i++ {
		select {
		case <-nilc:
			t.Fatal("nil chan")
		case nilc <- 1:
			t.Fatal("nil chan send")
		case v := <-c:
			c <- v
		}
	}
}

func TestSendOnClosedPanicsRecovered(t *testing.T) {
	c := make(chan int)
	close(c)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	select {
	case c <- 1:
	default:
	}
}

func TestOnceValuePanicsEachCall(t *testing.T) {
	f := sync.OnceValue(func() int { panic("boom") })
	for i := 0; i < 2; i++ {
		func() {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic on call", i)
				}
			}()
			f()
		}()
	}
}

func TestTickerDropsTicksForSlowReader(t *testing.T) {
	tk := time.NewTicker(time.Millisecond)
	defer tk.Stop()
	start := time.Now()
	n := 0
	for n < 5 {
		<-tk.C
		n++
		time.Sleep(5 * time.Millisecond)
	}
	if el := time.Since(start); el < 20*time.Millisecond {
		t.Fatalf("5 ticks with 5 ms sleeps took %v", el)
	}
}

func TestSinceAfterAfter(t *testing.T) {
	start := time.Now()
	<-time.After(20 * time.Millisecond)
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Fatal(d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	dl, ok := ctx.Deadline()
	<-ctx.Done()
	if !ok || time.Now().Before(dl) || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatal(ok, ctx.Err())
	}
}

func TestContextWithoutCancelAndCause(t *testing.T) {
	parent, cancel := context.WithCancelCause(context.Background())
	child := context.WithoutCancel(parent)
	dl, dcancel := context.WithDeadlineCause(parent, time.Now().Add(time.Hour), errors.New("late"))
	defer dcancel()
	stop := context.AfterFunc(child, func() { t.Error("AfterFunc of an uncancellable context ran") })
	defer stop()
	cancel(errors.New("why"))
	<-dl.Done()
	if context.Cause(dl).Error() != "why" || child.Err() != nil {
		t.Fatal(context.Cause(dl), child.Err())
	}
}

func TestCondBroadcastManyWaiters(t *testing.T) {
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	ready := false
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			for !ready {
				cond.Wait()
			}
			mu.Unlock()
		}()
	}
	time.Sleep(time.Millisecond)
	mu.Lock()
	ready = true
	cond.Broadcast()
	mu.Unlock()
	wg.Wait()
}

func TestChanOfChanRequestReply(t *testing.T) {
	reqs := make(chan chan int)
	go func() {
		for r := range reqs {
			r <- 42
		}
	}()
	for i := 0; i < 3; i++ {
		r := make(chan int)
		reqs <- r
		if <-r != 42 {
			t.Fatal("bad reply")
		}
	}
	close(reqs)
}

func TestSpinBarrier(t *testing.T) {
	var arrived atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			arrived.Add(1)
			for arrived.Load() < 3 {
				runtime.Gosched()
			}
		}()
	}
	wg.Wait()
}

func TestSemaphoreChannelBoundsConcurrency(t *testing.T) {
	sem := make(chan struct{}, 2)
	var cur, max atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			n := cur.Add(1)
			for {
				m := max.Load()
				if n <= m || max.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			cur.Add(-1)
			<-sem
		}()
	}
	wg.Wait()
	if max.Load() > 2 {
		t.Fatal(max.Load())
	}
}

func TestTimeTickLoopBreak(t *testing.T) {
	n := 0
	for range time.Tick(time.Millisecond) {
		n++
		if n == 3 {
			break
		}
	}
}

func TestAfterFuncStopReportsFired(t *testing.T) {
	fired := make(chan struct{})
	tm := time.AfterFunc(time.Millisecond, func() { close(fired) })
	<-fired
	if tm.Stop() {
		t.Fatal("Stop after the function ran reported true")
	}
	tm2 := time.AfterFunc(time.Hour, func() { t.Error("ran") })
	if !tm2.Stop() {
		t.Fatal("Stop of a pending AfterFunc reported false")
	}
}

func TestSyncMapConcurrent(t *testing.T) {
	var m sync.Map
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, _ := m.LoadOrStore("k", i)
			m.CompareAndSwap("k", v, v)
		}()
	}
	wg.Wait()
	n := 0
	m.Range(func(k, v any) bool { n++; return true })
	if n != 1 {
		t.Fatal(n)
	}
}
