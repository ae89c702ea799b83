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

func TestPipelineCloseRange(t *testing.T) {
	src := make(chan int)
	sq := make(chan int)
	go func() {
		defer close(src)
		for i := 1; i <= 5; i++ {
			src <- i
		}
	}()
	go func() {
		defer close(sq)
		for v := range src {
			sq <- v * v
		}
	}()
	sum := 0
	for v := range sq {
		sum += v
	}
	if sum != 55 {
		t.Fatal(sum)
	}
}

func TestWorkerPoolCloseResultsAfterWait(t *testing.T) {
	jobs := make(chan int, 10)
	results := make(chan int, 10)
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				results <- j * 2
			}
		}()
	}
	for i := 0; i < 9; i++ {
		jobs <- i
	}
	close(jobs)
	go func() { wg.Wait(); close(results) }()
	n := 0
	for range results {
		n++
	}
	if n != 9 {
		t.Fatal(n)
	}
}

func TestHappensBeforeThroughChannel(t *testing.T) {
	var x int
	ch := make(chan struct{})
	go func() {
		x = 42
		close(ch)
	}()
	<-ch
	if x != 42 {
		t.Fatal(x)
	}
}

func TestAtomicValueConfigReload(t *testing.T) {
	var cfg atomic.Value
	cfg.Store(map[string]int{"v": 1})
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				m := cfg.Load().(map[string]int)
				if m["v"] < 1 {
					t.Error("bad")
				}
			}
		}()
	}
	cfg.Store(map[string]int{"v": 2})
	wg.Wait()
}

func TestRWMutexReaders(t *testing.T) {
	var mu sync.RWMutex
	m := map[int]int{}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(2)
		go func() { defer wg.Done(); mu.Lock(); m[i] = i; mu.Unlock() }()
		go func() { defer wg.Done(); mu.RLock(); _ = m[i]; mu.RUnlock() }()
	}
	wg.Wait()
	if len(m) != 3 {
		t.Fatal(len(m))
	}
}

func TestTickerRateLimiter(t *testing.T) {
	tk := time.NewTicker(10 * time.Millisecond)
	defer tk.Stop()
	start := time.Now()
	for i := 0; i < 5; i++ {
		<-tk.C
	}
	if el := time.Since(start); el < 50*time.Millisecond || el > 5*time.Second {
		t.Fatal(el)
	}
}

func TestRetryWithTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var attempts atomic.Int32
	op := func() error {
		if attempts.Add(1) < 3 {
			return errors.New("try again")
		}
		return nil
	}
	var err error
	for {
		if err = op(); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("timed out after", attempts.Load())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func TestNestedDeadlineEarliest(t *testing.T) {
	outer, c1 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer c1()
	inner, c2 := context.WithTimeout(outer, time.Hour)
	defer c2()
	d1, _ := outer.Deadline()
	d2, _ := inner.Deadline()
	if !d1.Equal(d2) {
		t.Fatal(d1, d2)
	}
	<-inner.Done()
	if !errors.Is(inner.Err(), context.DeadlineExceeded) {
		t.Fatal(inner.Err())
	}
}

func TestNumGoroutineReturnsToBaseline(t *testing.T) {
	base := runtime.NumGoroutine()
	var wg sync.WaitGroup
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); time.Sleep(time.Millisecond) }()
	}
	if n := runtime.NumGoroutine(); n < base+5 {
		t.Fatalf("%d goroutines, want at least %d", n, base+5)
	}
	wg.Wait()
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		t.Fatalf("%d goroutines, want %d", n, base)
	}
}

func TestCleanupOrderWithGoroutine(t *testing.T) {
	done := make(chan struct{})
	stop := make(chan struct{})
	go func() {
		defer close(done)
		<-stop
	}()
	t.Cleanup(func() { <-done })
	t.Cleanup(func() { close(stop) })
}

func TestSyncPoolNew(t *testing.T) {
	p := sync.Pool{New: func() any { return new(int) }}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := p.Get().(*int)
			*v++
			p.Put(v)
		}()
	}
	wg.Wait()
}

func TestCloseNilChannelPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	var c chan int
	close(c)
}

func TestTickerResetAfterStop(t *testing.T) {
	tk := time.NewTicker(time.Hour)
	tk.Stop()
	tk.Reset(5 * time.Millisecond)
	select {
	case <-tk.C:
	case <-time.After(time.Second):
		t.Fatal("no tick after Reset")
	}
	tk.Stop()
}

func TestParallelSubtestsShareWaitGroup(t *testing.T) {
	var wg sync.WaitGroup
	var n atomic.Int32
	t.Run("group", func(t *testing.T) {
		for i := 0; i < 3; i++ {
			wg.Add(1)
			t.Run("p", func(t *testing.T) {
				t.Parallel()
				defer wg.Done()
				n.Add(1)
			})
		}
	})
	wg.Wait()
	if n.Load() != 3 {
		t.Fatal(n.Load())
	}
}

func TestOnceCloseBroadcast(t *testing.T) {
	var once sync.Once
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			once.Do(func() { close(stop) })
			<-stop
		}()
	}
	wg.Wait()
}

func TestCondSignalOneAtATime(t *testing.T) {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	queue := 0
	var got atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			for queue == 0 {
				c.Wait()
			}
			queue--
			mu.Unlock()
			got.Add(1)
		}()
	}
	for i := 0; i < 3; i++ {
		mu.Lock()
		queue++
		c.Signal()
		mu.Unlock()
	}
	wg.Wait()
	if got.Load() != 3 {
		t.Fatal(got.Load())
	}
}

func TestDeadlineLoopWithWork(t *testing.T) {
	var n atomic.Int64
	go func() {
		for {
			n.Add(1)
			runtime.Gosched()
			if n.Load() > 1000 {
				return
			}
		}
	}()
	deadline := time.Now().Add(2 * time.Second)
	for n.Load() <= 1000 {
		if time.Now().After(deadline) {
			t.Fatal("worker made no progress in 2 s")
		}
		runtime.Gosched()
	}
}
