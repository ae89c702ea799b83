package idioms3

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"weak"
)

// TestPullIteratorHoldsLockAcrossYield checks an iterator that holds a mutex while suspended in iter.Pull: another goroutine gets it only after stop.
func TestPullIteratorHoldsLockAcrossYield(t *testing.T) {
	var mu sync.Mutex
	state := 0
	seq := func(yield func(int) bool) {
		mu.Lock()
		defer mu.Unlock()
		for i := range 5 {
			state = i
			if !yield(i) {
				return
			}
		}
	}
	next, stop := iter.Pull(seq)
	if v, ok := next(); !ok || v != 0 {
		t.Fatalf("next = %d %v", v, ok)
	}
	seen := make(chan int)
	go func() {
		mu.Lock()
		s := state
		mu.Unlock()
		seen <- s
	}()
	if v, ok := next(); !ok || v != 1 {
		t.Fatalf("next = %d %v", v, ok)
	}
	stop() // runs the iterator's deferred Unlock
	if s := <-seen; s != 1 {
		t.Fatalf("other goroutine saw state %d, want 1", s)
	}
}

// TestRangeFuncBodyDeferAndGo checks defer and go statements in a range-over-func loop body: defers run at function exit, goroutines see their own values.
func TestRangeFuncBodyDeferAndGo(t *testing.T) {
	var order []int
	results := make(chan int, 4)
	func() {
		var wg sync.WaitGroup
		defer wg.Wait()
		for i := range slices.Values([]int{1, 2, 3, 4}) {
			defer func() { order = append(order, i) }()
			wg.Go(func() { results <- i * 10 })
		}
		if len(order) != 0 {
			t.Error("defer ran inside the loop")
		}
	}()
	close(results)
	sum := 0
	for r := range results {
		sum += r
	}
	if sum != 100 || !slices.Equal(order, []int{4, 3, 2, 1}) {
		t.Fatalf("sum %d order %v", sum, order)
	}
}

// guarded is an object whose mutex and atomic goroutines used before it is dropped.
type guarded struct {
	mu   sync.Mutex
	n    int
	hits atomic.Int64
	ch   chan int
	pad  [32]byte
}

// TestWeakPointerAfterSyncUse checks that an object whose mutex, atomic and channel goroutines used is still collected (weak pointer nil, cleanup run).
func TestWeakPointerAfterSyncUse(t *testing.T) {
	cleaned := make(chan struct{})
	wp := func() weak.Pointer[guarded] {
		g := &guarded{ch: make(chan int, 4)}
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				g.mu.Lock()
				g.n++
				g.mu.Unlock()
				g.hits.Add(1)
				g.ch <- i
			})
		}
		wg.Wait()
		if g.n != 4 || g.hits.Load() != 4 || len(g.ch) != 4 {
			t.Errorf("n %d hits %d len %d", g.n, g.hits.Load(), len(g.ch))
		}
		runtime.AddCleanup(g, func(c chan struct{}) { close(c) }, cleaned)
		return weak.Make(g)
	}()
	gcUntil(t, cleaned, "cleanup of a used object")
	if wp.Value() != nil {
		t.Fatal("weak pointer set after the cleanup ran")
	}
}

// TestFinalizerLocksSharedMutex checks finalizers that count under a mutex goroutines of the test also hold.
func TestFinalizerLocksSharedMutex(t *testing.T) {
	var mu sync.Mutex
	finalized := 0
	all := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			r := &resource{name: fmt.Sprint(i)}
			runtime.SetFinalizer(r, func(*resource) {
				mu.Lock()
				finalized++
				if finalized == 4 {
					close(all)
				}
				mu.Unlock()
			})
			mu.Lock()
			_ = finalized
			mu.Unlock()
		})
	}
	wg.Wait()
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Go(func() { // a reader contending for the mutex while finalizers run
		for {
			mu.Lock()
			f := finalized
			mu.Unlock()
			if f > 4 {
				t.Errorf("finalized %d", f)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	})
	gcUntil(t, all, "finalizers")
	close(stop)
	readers.Wait()
}

// TestSubtestContextCancelledBeforeParent checks that a subtest's t.Context is cancelled when the subtest ends while the parent's stays live.
func TestSubtestContextCancelledBeforeParent(t *testing.T) {
	parent := t.Context()
	var subCtx context.Context
	done := make(chan struct{})
	t.Run("sub", func(t *testing.T) {
		subCtx = t.Context()
		go func() {
			<-subCtx.Done()
			close(done)
		}()
	})
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("subtest context not cancelled after the subtest")
	}
	if subCtx.Err() == nil || parent.Err() != nil {
		t.Fatalf("sub err %v parent err %v", subCtx.Err(), parent.Err())
	}
}

// TestLockedThreadDispatcher checks a "main thread" goroutine that locks its OS thread and runs the functions sent to it, blocking on channels while locked.
func TestLockedThreadDispatcher(t *testing.T) {
	calls := make(chan func())
	stopped := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer close(stopped)
		for f := range calls {
			f()
		}
	}()
	do := func(f func()) {
		done := make(chan struct{})
		calls <- func() { f(); close(done) }
		<-done
	}
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for i := 1; i <= 5; i++ {
		wg.Go(func() {
			do(func() {
				mu.Lock()
				total += i
				mu.Unlock()
			})
		})
	}
	wg.Wait()
	close(calls)
	<-stopped
	if total != 15 {
		t.Fatalf("total %d", total)
	}
}

// Future is a generic single-assignment result with a done channel.
type Future[T any] struct {
	done chan struct{}
	val  T
	err  error
}

func Async[T any](f func() (T, error)) *Future[T] {
	fu := &Future[T]{done: make(chan struct{})}
	go func() {
		defer close(fu.done)
		fu.val, fu.err = f()
	}()
	return fu
}

func (f *Future[T]) Await(ctx context.Context) (T, error) {
	select {
	case <-f.done:
		return f.val, f.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

func Then[T, U any](f *Future[T], g func(T) (U, error)) *Future[U] {
	return Async(func() (U, error) {
		v, err := f.Await(context.Background())
		if err != nil {
			var zero U
			return zero, err
		}
		return g(v)
	})
}

// TestGenericFutureChain checks chained generic futures across goroutines, an error passing through, and Await by several goroutines.
func TestGenericFutureChain(t *testing.T) {
	a := Async(func() (int, error) { return 20, nil })
	b := Then(a, func(v int) (string, error) { return fmt.Sprint(v + 1), nil })
	errBad := errors.New("bad")
	c := Then(b, func(string) (float64, error) { return 0, errBad })
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if s, err := b.Await(context.Background()); s != "21" || err != nil {
				t.Errorf("b = %q %v", s, err)
			}
		})
	}
	wg.Wait()
	if _, err := c.Await(context.Background()); !errors.Is(err, errBad) {
		t.Fatalf("c err %v", err)
	}
	release := make(chan struct{})
	slow := Async(func() (int, error) { <-release; return 7, nil })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	if _, err := slow.Await(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow await err %v", err)
	}
	close(release)
	if v, err := slow.Await(context.Background()); v != 7 || err != nil {
		t.Fatalf("slow = %d %v", v, err)
	}
}

// TestOSPipeDelayedWriterBeforeDeadline checks a reader goroutine with a 2 s read deadline on os.Pipe that gets what a writer sends after sleeping 10 ms.
func TestOSPipeDelayedWriterBeforeDeadline(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.SetReadDeadline(time.Now().Add(2 * time.Second)); err != nil {
		t.Skip(err)
	}
	got := make(chan string, 1)
	go func() {
		p := make([]byte, 32)
		n, err := r.Read(p)
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- string(p[:n])
	}()
	wrote := make(chan error, 1)
	go func() {
		time.Sleep(10 * time.Millisecond)
		_, err := w.Write([]byte("hello"))
		w.Close()
		wrote <- err
	}()
	if s := <-got; s != "hello" {
		t.Fatalf("read %q", s)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
}

// TestSemaphoreAcquireWithContext checks a channel semaphore whose Acquire gives up when its context times out while all slots are held.
func TestSemaphoreAcquireWithContext(t *testing.T) {
	sem := make(chan struct{}, 2)
	acquire := func(ctx context.Context) error {
		select {
		case sem <- struct{}{}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	bg := context.Background()
	if acquire(bg) != nil || acquire(bg) != nil {
		t.Fatal("could not take the free slots")
	}
	ctx, cancel := context.WithTimeout(bg, 10*time.Millisecond)
	defer cancel()
	errc := make(chan error)
	go func() { errc <- acquire(ctx) }()
	if err := <-errc; !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("acquire on full semaphore: %v", err)
	}
	<-sem
	go func() { errc <- acquire(bg) }()
	if err := <-errc; err != nil {
		t.Fatalf("acquire after release: %v", err)
	}
	if len(sem) != 2 {
		t.Fatalf("len %d", len(sem))
	}
}

// TestErrorsJoinIncrementalUnderMutex checks errors joined one by one under a mutex by goroutines, then unwrapped with errors.As.
func TestErrorsJoinIncrementalUnderMutex(t *testing.T) {
	var mu sync.Mutex
	var err error
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Go(func() {
			if i == 0 {
				return
			}
			e := &os.PathError{Op: "open", Path: fmt.Sprintf("f%d", i), Err: os.ErrNotExist}
			mu.Lock()
			err = errors.Join(err, e)
			mu.Unlock()
		})
	}
	wg.Wait()
	var pe *os.PathError
	if !errors.As(err, &pe) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err %v", err)
	}
	n := 0
	var walk func(error)
	walk = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		n++
	}
	walk(err)
	if n != 4 {
		t.Fatalf("%d leaf errors in %v", n, err)
	}
}
