package idioms3

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// counter embeds sync.Mutex; its methods run as goroutines through method values and expressions.
type counter struct {
	sync.Mutex
	n    int
	done chan struct{}
}

func (c *counter) run(k int) {
	defer func() { c.done <- struct{}{} }()
	for range k {
		c.incr()
	}
}

func (c *counter) incr() {
	c.Lock()
	defer c.Unlock()
	c.n++
}

// TestEmbeddedMutexMethodGoroutines checks `go c.run()`, a method value and a method expression started as goroutines on a struct embedding sync.Mutex.
func TestEmbeddedMutexMethodGoroutines(t *testing.T) {
	c := &counter{done: make(chan struct{})}
	go c.run(10)
	f := c.run
	go f(20)
	g := (*counter).run
	go g(c, 30)
	var wg sync.WaitGroup
	inc := c.incr
	for range 5 {
		wg.Go(inc)
	}
	for range 3 {
		<-c.done
	}
	wg.Wait()
	c.Lock()
	defer c.Unlock()
	if c.n != 65 {
		t.Fatalf("n = %d, want 65", c.n)
	}
}

// TestChannelOfFuncs checks a worker that executes closures received on a channel, through directional views.
func TestChannelOfFuncs(t *testing.T) {
	tasks := make(chan func() int)
	results := make(chan int)
	var submit chan<- func() int = tasks
	var work <-chan func() int = tasks
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for f := range work {
				results <- f()
			}
		})
	}
	go func() {
		for i := 1; i <= 10; i++ {
			submit <- func() int { return i * i }
		}
		close(submit)
		wg.Wait()
		close(results)
	}()
	sum := 0
	for r := range results {
		sum += r
	}
	if sum != 385 {
		t.Fatalf("sum = %d, want 385", sum)
	}
}

// TestChannelOfStreams checks flattening a channel of receive-only streams, keeping each stream's order.
func TestChannelOfStreams(t *testing.T) {
	streams := make(chan (<-chan int), 3)
	go func() {
		defer close(streams)
		for s := range 3 {
			ch := make(chan int)
			streams <- ch
			go func(out chan<- int) {
				defer close(out)
				for i := range 4 {
					out <- s*10 + i
				}
			}(ch)
		}
	}()
	var got []int
	for s := range streams {
		for v := range s {
			got = append(got, v)
		}
	}
	want := []int{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v", got)
	}
}

// TestSelectLabeledBreakContinue checks labeled continue and break out of a select inside a loop.
func TestSelectLabeledBreakContinue(t *testing.T) {
	vals := make(chan int)
	quit := make(chan struct{})
	go func() {
		for i := range 10 {
			vals <- i
		}
		close(quit)
	}()
	sum, loops := 0, 0
loop:
	for {
		loops++
		select {
		case v := <-vals:
			if v%2 == 1 {
				continue loop
			}
			sum += v
		case <-quit:
			break loop
		}
	}
	if sum != 20 || loops != 11 {
		t.Fatalf("sum = %d loops = %d", sum, loops)
	}
}

// TestLoopVarPerIteration checks that goroutines capture each iteration's own loop variables (Go 1.22 semantics).
func TestLoopVarPerIteration(t *testing.T) {
	got := make([]int, 10)
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Go(func() { got[i] = i * i })
	}
	names := []string{"a", "b", "c"}
	joined := make([]string, len(names))
	for i, s := range names {
		wg.Go(func() { joined[i] = strings.ToUpper(s) })
	}
	wg.Wait()
	for i, v := range got {
		if v != i*i {
			t.Fatalf("got[%d] = %d", i, v)
		}
	}
	if strings.Join(joined, "") != "ABC" {
		t.Fatalf("joined %v", joined)
	}
}

// TestCloseBroadcast100 checks that closing one channel releases 100 waiting goroutines.
func TestCloseBroadcast100(t *testing.T) {
	start := make(chan struct{})
	var ready, done sync.WaitGroup
	var released atomic.Int64
	for range 100 {
		ready.Add(1)
		done.Go(func() {
			ready.Done()
			<-start
			released.Add(1)
		})
	}
	ready.Wait()
	if released.Load() != 0 {
		t.Fatal("released before close")
	}
	close(start)
	done.Wait()
	if released.Load() != 100 {
		t.Fatalf("released %d", released.Load())
	}
}

// TestNilChannelMergeSelect checks a merge loop that disables each input by setting it to nil once closed.
func TestNilChannelMergeSelect(t *testing.T) {
	a, b := make(chan int), make(chan int)
	go func() {
		defer close(a)
		for i := range 5 {
			a <- i
		}
	}()
	go func() {
		defer close(b)
		for i := range 3 {
			b <- 100 + i
		}
	}()
	var fromA, fromB []int
	for a != nil || b != nil {
		select {
		case v, ok := <-a:
			if !ok {
				a = nil
				continue
			}
			fromA = append(fromA, v)
		case v, ok := <-b:
			if !ok {
				b = nil
				continue
			}
			fromB = append(fromB, v)
		}
	}
	if !slices.Equal(fromA, []int{0, 1, 2, 3, 4}) || !slices.Equal(fromB, []int{100, 101, 102}) {
		t.Fatalf("a %v b %v", fromA, fromB)
	}
}

// TestUnbufferedRendezvousCounts checks that a completed unbuffered send implies the receiver reached its receive.
func TestUnbufferedRendezvousCounts(t *testing.T) {
	ch := make(chan int)
	var arrived atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for want := range 20 {
			arrived.Add(1)
			if v := <-ch; v != want {
				t.Errorf("received %d, want %d", v, want)
			}
		}
	}()
	for i := range 20 {
		ch <- i
		if a := arrived.Load(); a < int64(i+1) {
			t.Fatalf("send %d completed with %d receivers arrived", i, a)
		}
	}
	<-done
}

// TestFanOut1000AtomicAdd checks 1000 goroutines each doing one atomic add.
func TestFanOut1000AtomicAdd(t *testing.T) {
	var sum atomic.Int64
	var wg sync.WaitGroup
	for i := range 1000 {
		wg.Go(func() { sum.Add(int64(i)) })
	}
	wg.Wait()
	if sum.Load() != 499500 {
		t.Fatalf("sum = %d", sum.Load())
	}
}

// TestResultsByIndexNoLock checks goroutine-per-item results written to distinct slice indexes without a lock.
func TestResultsByIndexNoLock(t *testing.T) {
	words := []string{"go", "chan", "select", "mutex", "atomic", "defer"}
	lens := make([]int, len(words))
	var wg sync.WaitGroup
	for i, w := range words {
		wg.Go(func() { lens[i] = len(w) })
	}
	wg.Wait()
	if !slices.Equal(lens, []int{2, 4, 6, 5, 6, 5}) {
		t.Fatalf("lens %v", lens)
	}
}

// TestOnceValueSharedConfig checks that sync.OnceValue computes once and every goroutine gets the same map.
func TestOnceValueSharedConfig(t *testing.T) {
	var calls atomic.Int64
	load := sync.OnceValue(func() map[string]int {
		calls.Add(1)
		return map[string]int{"workers": 4, "retries": 3}
	})
	ptrs := make([]uintptr, 10)
	var wg sync.WaitGroup
	for i := range ptrs {
		wg.Go(func() {
			m := load()
			if m["workers"] != 4 {
				t.Errorf("workers = %d", m["workers"])
			}
			ptrs[i] = reflect.ValueOf(m).Pointer()
		})
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Fatalf("computed %d times", calls.Load())
	}
	for _, p := range ptrs {
		if p != ptrs[0] {
			t.Fatal("different maps returned")
		}
	}
}

// TestClonesUnderLock checks that maps.Clone and slices.Clone taken under a lock give a consistent snapshot.
func TestClonesUnderLock(t *testing.T) {
	var mu sync.Mutex
	m := map[int]bool{}
	var order []int
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			for i := range 10 {
				mu.Lock()
				m[w*10+i] = true
				order = append(order, w*10+i)
				mu.Unlock()
			}
		})
	}
	for range 5 {
		wg.Go(func() {
			mu.Lock()
			mc, sc := maps.Clone(m), slices.Clone(order)
			mu.Unlock()
			if len(mc) != len(sc) {
				t.Errorf("snapshot map %d slice %d", len(mc), len(sc))
			}
			for _, k := range sc {
				if !mc[k] {
					t.Errorf("key %d missing from map snapshot", k)
				}
			}
		})
	}
	wg.Wait()
	if len(m) != 30 || len(order) != 30 {
		t.Fatalf("final %d %d", len(m), len(order))
	}
}

var errOdd = errors.New("odd input")

// TestErrorsJoinFromGoroutines checks errors.Join of errors goroutines stored by index.
func TestErrorsJoinFromGoroutines(t *testing.T) {
	errs := make([]error, 6)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			if i%2 == 1 {
				errs[i] = fmt.Errorf("item %d: %w", i, errOdd)
			}
		})
	}
	wg.Wait()
	err := errors.Join(errs...)
	if !errors.Is(err, errOdd) {
		t.Fatalf("joined error %v does not wrap errOdd", err)
	}
	if lines := strings.Split(err.Error(), "\n"); !slices.Equal(lines, []string{"item 1: odd input", "item 3: odd input", "item 5: odd input"}) {
		t.Fatalf("lines %q", lines)
	}
	if errors.Join(make([]error, 3)...) != nil {
		t.Fatal("join of nils not nil")
	}
}

// safeGo runs f in a goroutine and converts a panic into an error on the channel.
func safeGo(errs chan<- error, f func()) {
	go func() {
		var err error
		defer func() {
			if r := recover(); r != nil {
				if e, ok := r.(error); ok {
					err = fmt.Errorf("recovered: %w", e)
				} else {
					err = fmt.Errorf("recovered: %v", r)
				}
			}
			errs <- err
		}()
		f()
	}()
}

// TestRecoverRuntimeErrorToChannel checks panics (a runtime error, a value, none) converted to errors in goroutines.
func TestRecoverRuntimeErrorToChannel(t *testing.T) {
	errs := make(chan error)
	idx := 5
	safeGo(errs, func() { _ = []int{1, 2}[idx] })
	safeGo(errs, func() { panic("plain") })
	safeGo(errs, func() {})
	var rt, plain, none int
	for range 3 {
		err := <-errs
		var re runtime.Error
		switch {
		case err == nil:
			none++
		case errors.As(err, &re):
			rt++
		case strings.Contains(err.Error(), "plain"):
			plain++
		}
	}
	if rt != 1 || plain != 1 || none != 1 {
		t.Fatalf("runtime %d plain %d none %d", rt, plain, none)
	}
}

// TestGoexitWithDeferredDone checks that runtime.Goexit runs deferred wg.Done, recover sees nil, and later code is skipped.
func TestGoexitWithDeferredDone(t *testing.T) {
	var wg sync.WaitGroup
	var after, recovered, exited atomic.Int64
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if recover() != nil {
					recovered.Add(1)
				}
				exited.Add(1)
			}()
			if i%2 == 0 {
				runtime.Goexit()
			}
			after.Add(1)
		}()
	}
	wg.Wait()
	if after.Load() != 3 || recovered.Load() != 0 || exited.Load() != 6 {
		t.Fatalf("after %d recovered %d exited %d", after.Load(), recovered.Load(), exited.Load())
	}
}

// TestLockOSThreadGoroutine checks goroutines that lock their OS thread, one of them exiting while still locked.
func TestLockOSThreadGoroutine(t *testing.T) {
	results := make(chan int, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			runtime.LockOSThread()
			if i != 2 {
				defer runtime.UnlockOSThread()
			}
			s := 0
			for j := range 100 {
				s += j * i
			}
			results <- s
		})
	}
	wg.Wait()
	close(results)
	sum := 0
	for s := range results {
		sum += s
	}
	if sum != 4950*3 {
		t.Fatalf("sum = %d", sum)
	}
}
