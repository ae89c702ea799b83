package idioms3

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// cache avoids recursive RLock: exported methods lock, the unexported helper assumes the lock is held.
type cache struct {
	mu sync.RWMutex
	m  map[string]int
}

func (c *cache) getLocked(k string) int { return c.m[k] }

func (c *cache) Sum(ks ...string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s := 0
	for _, k := range ks {
		s += c.getLocked(k) // not c.Get: a recursive RLock could deadlock behind a waiting writer
	}
	return s
}

func (c *cache) Set(k string, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

// TestRWMutexWriterPreference checks that once a writer waits, TryRLock fails and a new reader gets the lock only after the writer.
func TestRWMutexWriterPreference(t *testing.T) {
	c := &cache{m: map[string]int{"a": 1, "b": 2}}
	c.mu.RLock() // a long reader
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		c.Set("a", 10)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if !c.mu.TryRLock() {
			break // the writer is waiting
		}
		c.mu.RUnlock()
		if time.Now().After(deadline) {
			t.Fatal("writer never started waiting")
		}
		runtime.Gosched()
	}
	lateSum := make(chan int)
	go func() { lateSum <- c.Sum("a", "b") }()
	if got := c.getLocked("a"); got != 1 {
		t.Fatalf("writer ran while a reader held the lock: a = %d", got)
	}
	c.mu.RUnlock()
	if s := <-lateSum; s != 12 {
		t.Fatalf("late reader saw sum %d, want 12 (after the waiting writer)", s)
	}
	<-writerDone
}

// TestSemaphoreTryAcquire checks a buffered-channel semaphore where TryAcquire (select default) succeeds exactly capacity times while slots are held.
func TestSemaphoreTryAcquire(t *testing.T) {
	sem := make(chan struct{}, 3)
	tryAcquire := func() bool {
		select {
		case sem <- struct{}{}:
			return true
		default:
			return false
		}
	}
	release := make(chan struct{})
	var attempts, holders sync.WaitGroup
	var ok, failed atomic.Int64
	for range 10 {
		attempts.Add(1)
		holders.Go(func() {
			if !tryAcquire() {
				failed.Add(1)
				attempts.Done()
				return
			}
			ok.Add(1)
			attempts.Done()
			<-release
			<-sem
		})
	}
	attempts.Wait()
	if ok.Load() != 3 || failed.Load() != 7 {
		t.Fatalf("acquired %d failed %d", ok.Load(), failed.Load())
	}
	if tryAcquire() {
		t.Fatal("TryAcquire succeeded on a full semaphore")
	}
	close(release)
	holders.Wait()
	if !tryAcquire() || len(sem) != 1 {
		t.Fatal("TryAcquire failed on an empty semaphore")
	}
}

// TestTickerBurstRateLimiter checks a limiter with a burst channel refilled by a ticker: the burst is immediate, the rest waits for ticks.
func TestTickerBurstRateLimiter(t *testing.T) {
	const burst, requests, period = 3, 8, 2 * time.Millisecond
	tokens := make(chan struct{}, burst)
	for range burst {
		tokens <- struct{}{}
	}
	start := time.Now()
	ticker := time.NewTicker(period)
	stop := make(chan struct{})
	refilled := make(chan struct{})
	go func() {
		defer close(refilled)
		for {
			select {
			case <-ticker.C:
				select {
				case tokens <- struct{}{}:
				default:
				}
			case <-stop:
				return
			}
		}
	}()
	var served []time.Duration
	for range requests {
		<-tokens
		served = append(served, time.Since(start))
	}
	ticker.Stop()
	close(stop)
	<-refilled
	if served[requests-1] < (requests-burst)*period {
		t.Fatalf("request %d served after %v, before %v", requests, served[requests-1], (requests-burst)*period)
	}
	if !slices.IsSorted(served) {
		t.Fatalf("served times not monotonic: %v", served)
	}
}

// TestDeadlineThroughThreeLevels checks that a root deadline reaches goroutines three levels down, through a later child deadline.
func TestDeadlineThroughThreeLevels(t *testing.T) {
	root := time.Now().Add(30 * time.Millisecond)
	ctx, cancel := context.WithDeadline(context.Background(), root)
	defer cancel()
	errs := make(chan error, 3)
	var wg sync.WaitGroup
	wg.Go(func() {
		l1, c1 := context.WithCancel(ctx)
		defer c1()
		wg.Go(func() {
			l2, c2 := context.WithDeadline(l1, time.Now().Add(time.Hour))
			defer c2()
			if d, ok := l2.Deadline(); !ok || !d.Equal(root) {
				t.Errorf("level 2 deadline %v, want %v", d, root)
			}
			wg.Go(func() {
				l3, c3 := context.WithTimeout(l2, time.Hour)
				defer c3()
				<-l3.Done()
				errs <- l3.Err()
			})
			<-l2.Done()
			errs <- l2.Err()
		})
		<-l1.Done()
		errs <- l1.Err()
	})
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		n++
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v", err)
		}
	}
	if n != 3 || time.Now().Before(root) {
		t.Fatalf("%d levels, ended %v before deadline", n, root.Sub(time.Now()))
	}
}

// TestMonotonicAcrossGoroutines checks that time.Now read after a channel handoff is never before the sender's reading.
func TestMonotonicAcrossGoroutines(t *testing.T) {
	first := make(chan time.Time)
	cur := (<-chan time.Time)(first)
	var wg sync.WaitGroup
	for range 5 {
		in := cur
		out := make(chan time.Time, 1)
		wg.Go(func() {
			prev := <-in
			now := time.Now()
			if now.Before(prev) || now.Sub(prev) < 0 {
				t.Errorf("time went back: %v then %v", prev, now)
			}
			out <- now
		})
		cur = out
	}
	start := time.Now()
	first <- start
	end := <-cur
	wg.Wait()
	if end.Before(start) || time.Since(start) < end.Sub(start) {
		t.Fatalf("start %v end %v", start, end)
	}
}

// TestAtomicTypedAPIs checks atomic.Int64 CAS max, Uint32 Swap, Bool CompareAndSwap leader election and Value CompareAndSwap.
func TestAtomicTypedAPIs(t *testing.T) {
	var maxv atomic.Int64
	var slot atomic.Uint32
	var leader atomic.Bool
	var owner atomic.Value
	owner.Store("")
	var leaders atomic.Int64
	swapped := make([]uint32, 8)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			v := int64(i * 7 % 8)
			for {
				cur := maxv.Load()
				if v <= cur || maxv.CompareAndSwap(cur, v) {
					break
				}
			}
			swapped[i] = slot.Swap(uint32(i + 1))
			if leader.CompareAndSwap(false, true) {
				leaders.Add(1)
				if !owner.CompareAndSwap("", "leader") {
					t.Error("owner already set")
				}
			}
		})
	}
	wg.Wait()
	if maxv.Load() != 7 || leaders.Load() != 1 || owner.Load() != "leader" {
		t.Fatalf("max %d leaders %d owner %v", maxv.Load(), leaders.Load(), owner.Load())
	}
	all := append(swapped, slot.Load())
	slices.Sort(all)
	for i, v := range all {
		if v != uint32(i) {
			t.Fatalf("swapped values %v", all)
		}
	}
}

// spsc is a lock-free single-producer single-consumer ring buffer.
type spsc struct {
	buf        [8]int
	head, tail atomic.Uint64 // head: next to read, tail: next to write
}

func (q *spsc) push(v int) bool {
	tail := q.tail.Load()
	if tail-q.head.Load() == uint64(len(q.buf)) {
		return false
	}
	q.buf[tail%uint64(len(q.buf))] = v
	q.tail.Store(tail + 1)
	return true
}

func (q *spsc) pop() (int, bool) {
	head := q.head.Load()
	if head == q.tail.Load() {
		return 0, false
	}
	v := q.buf[head%uint64(len(q.buf))]
	q.head.Store(head + 1)
	return v, true
}

// TestSPSCRingBuffer checks that a lock-free ring buffer passes 200 values in order from one producer to one consumer.
func TestSPSCRingBuffer(t *testing.T) {
	q := &spsc{}
	const n = 200
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			for !q.push(i) {
				runtime.Gosched()
			}
		}
	}()
	for want := range n {
		v, ok := q.pop()
		for !ok {
			runtime.Gosched()
			v, ok = q.pop()
		}
		if v != want {
			t.Fatalf("popped %d, want %d", v, want)
		}
	}
	<-done
}

// TestSpinWaitOnAtomicBool checks a Gosched spin on an atomic.Bool that publishes plain data written before the Store.
func TestSpinWaitOnAtomicBool(t *testing.T) {
	var ready atomic.Bool
	var data []int
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 10 {
			data = append(data, i*i)
		}
		ready.Store(true)
	}()
	for !ready.Load() {
		runtime.Gosched()
	}
	if len(data) != 10 || data[9] != 81 {
		t.Fatalf("data %v", data)
	}
	<-done
}
