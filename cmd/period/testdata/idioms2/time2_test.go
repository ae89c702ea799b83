package idioms2

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestContextAfterFuncStopBeforeAndAfterCancel checks context.AfterFunc: stop before cancel prevents f; after cancel f runs and stop reports false.
func TestContextAfterFuncStopBeforeAndAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Bool
	stop := context.AfterFunc(ctx, func() { ran.Store(true) })
	if !stop() {
		t.Fatal("stop before cancel returned false")
	}
	cancel()
	time.Sleep(5 * time.Millisecond) // give a (wrongly) scheduled f a chance to run
	if ran.Load() {
		t.Fatal("f ran although stop returned true")
	}
	if stop() {
		t.Fatal("second stop returned true")
	}

	ctx2, cancel2 := context.WithCancel(context.Background())
	fired := make(chan struct{})
	stop2 := context.AfterFunc(ctx2, func() { close(fired) })
	cancel2()
	<-fired
	if stop2() {
		t.Fatal("stop after f started returned true")
	}

	// Registering on an already-done context runs f promptly in its own goroutine.
	fired3 := make(chan struct{})
	context.AfterFunc(ctx2, func() { close(fired3) })
	<-fired3
}

// TestSelfRearmingAfterFunc checks a time.AfterFunc that re-arms itself with Reset and stops after exactly k firings.
func TestSelfRearmingAfterFunc(t *testing.T) {
	const k = 5
	const d = 2 * time.Millisecond
	var (
		mu      sync.Mutex
		tm      *time.Timer
		fired   atomic.Int64
		stopped atomic.Bool
	)
	done := make(chan struct{})
	fire := func() {
		n := fired.Add(1)
		if n == k {
			stopped.Store(true)
			close(done)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if !stopped.Load() {
			tm.Reset(d)
		}
	}
	start := time.Now()
	mu.Lock()
	tm = time.AfterFunc(d, fire)
	mu.Unlock()
	<-done
	if el := time.Since(start); el < k*d {
		t.Fatalf("%d firings took only %v, want >= %v", k, el, k*d)
	}
	time.Sleep(3 * d) // a buggy extra firing would show up here
	if got := fired.Load(); got != k {
		t.Fatalf("fired %d times, want %d", got, k)
	}
}

// debouncer runs fn once a quiet period d has passed since the last Trigger.
type debouncer struct {
	mu    sync.Mutex
	d     time.Duration
	timer *time.Timer
	last  int
	fn    func(last int)
}

func (db *debouncer) Trigger(v int) {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.last = v
	if db.timer == nil {
		db.timer = time.AfterFunc(db.d, db.fire)
	} else {
		db.timer.Reset(db.d)
	}
}

func (db *debouncer) fire() {
	db.mu.Lock()
	v := db.last
	db.mu.Unlock()
	db.fn(v)
}

func (db *debouncer) Stop() {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.timer != nil {
		db.timer.Stop()
	}
}

// TestDebouncer checks that a burst of events fires the debounced function at most once per event and eventually with the last value.
func TestDebouncer(t *testing.T) {
	const events = 5
	fires := make(chan int, events+1)
	db := &debouncer{d: 30 * time.Millisecond, fn: func(v int) { fires <- v }}
	defer db.Stop()
	for i := 1; i <= events; i++ {
		db.Trigger(i)
		time.Sleep(time.Millisecond)
	}
	count := 0
	for {
		v := <-fires
		count++
		if v < 1 || v > events {
			t.Fatalf("fired with %d", v)
		}
		if v == events {
			break
		}
	}
	if count > events {
		t.Fatalf("fired %d times for %d events", count, events)
	}
}

// TestTimerResetWithoutDrain checks Go 1.23+ timers: Reset after expiry or Stop, without draining C, never delivers a stale value.
func TestTimerResetWithoutDrain(t *testing.T) {
	const d = 20 * time.Millisecond
	tm := time.NewTimer(time.Millisecond)
	time.Sleep(5 * time.Millisecond) // timer has probably expired; its value is not received
	start := time.Now()
	tm.Reset(d)
	<-tm.C
	if el := time.Since(start); el < d {
		t.Fatalf("received after %v, want >= %v (stale value?)", el, d)
	}

	tm2 := time.NewTimer(time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	tm2.Stop() // no drain
	start = time.Now()
	tm2.Reset(d)
	<-tm2.C
	if el := time.Since(start); el < d {
		t.Fatalf("after Stop+Reset received after %v, want >= %v", el, d)
	}
}

// TestTimerReuseLoop checks a single timer reused in a loop via Reset, each wait lasting at least its duration.
func TestTimerReuseLoop(t *testing.T) {
	tm := time.NewTimer(time.Hour)
	defer tm.Stop()
	for i := 1; i <= 5; i++ {
		d := time.Duration(i) * time.Millisecond
		start := time.Now()
		tm.Reset(d)
		<-tm.C
		if el := time.Since(start); el < d {
			t.Fatalf("iteration %d: waited %v, want >= %v", i, el, d)
		}
	}
}

// TestTickerResetNewPeriod checks that Reset switches a ticker from a 1h period to 10ms, three ticks taking at least 30ms.
func TestTickerResetNewPeriod(t *testing.T) {
	const p = 10 * time.Millisecond
	tk := time.NewTicker(time.Hour)
	defer tk.Stop()
	start := time.Now()
	tk.Reset(p)
	for range 3 {
		<-tk.C
	}
	if el := time.Since(start); el < 3*p {
		t.Fatalf("3 ticks after %v, want >= %v", el, 3*p)
	}
}

// TestWithTimeoutWorkerHonoursCtx checks a worker loop returns DeadlineExceeded from context.WithTimeout no earlier than the timeout.
func TestWithTimeoutWorkerHonoursCtx(t *testing.T) {
	const timeout = 30 * time.Millisecond
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res := make(chan error, 1)
	go func() {
		for {
			select {
			case <-ctx.Done():
				res <- ctx.Err()
				return
			case <-time.After(time.Millisecond):
				// one unit of work
			}
		}
	}()
	err := <-res
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("worker returned %v, want DeadlineExceeded", err)
	}
	if el := time.Since(start); el < timeout {
		t.Fatalf("worker stopped after %v, before the %v timeout", el, timeout)
	}
}

// TestTimeoutCause checks WithTimeoutCause: expiry gives DeadlineExceeded with the custom cause; an early cancel gives Canceled.
func TestTimeoutCause(t *testing.T) {
	errSlow := errors.New("too slow")
	start := time.Now()
	ctx, cancel := context.WithTimeoutCause(context.Background(), 10*time.Millisecond, errSlow)
	defer cancel()
	<-ctx.Done()
	if el := time.Since(start); el < 10*time.Millisecond {
		t.Fatalf("done after %v", el)
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) || context.Cause(ctx) != errSlow {
		t.Fatalf("Err %v Cause %v", ctx.Err(), context.Cause(ctx))
	}

	ctx2, cancel2 := context.WithTimeoutCause(context.Background(), time.Hour, errSlow)
	defer cancel2()
	go cancel2()
	<-ctx2.Done()
	if ctx2.Err() != context.Canceled || context.Cause(ctx2) != context.Canceled {
		t.Fatalf("early cancel: Err %v Cause %v", ctx2.Err(), context.Cause(ctx2))
	}
}

// TestCancelCauseFirstWins checks that among racing CancelCauseFunc calls exactly one cause sticks and everyone sees it.
func TestCancelCauseFirstWins(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	const n = 8
	causes := make([]error, n)
	for i := range causes {
		causes[i] = errors.New("cause " + string(rune('a'+i)))
	}
	seen := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			cancel(causes[i])
			seen[i] = context.Cause(ctx)
		}()
	}
	close(start)
	wg.Wait()
	final := context.Cause(ctx)
	found := false
	for _, c := range causes {
		if c == final {
			found = true
		}
	}
	if !found {
		t.Fatalf("Cause %v is not one of the supplied causes", final)
	}
	for i, s := range seen {
		if s != final {
			t.Fatalf("goroutine %d saw cause %v, final %v", i, s, final)
		}
	}
	if ctx.Err() != context.Canceled {
		t.Fatalf("Err = %v", ctx.Err())
	}
}

// TestHeartbeatLoop checks a loop that selects on work, a time.After heartbeat and a done channel processes all work and beats when idle.
func TestHeartbeatLoop(t *testing.T) {
	work := make(chan int)
	hb := make(chan struct{}, 1)
	done := make(chan struct{})
	result := make(chan int)
	go func() {
		sum := 0
		for {
			select {
			case w := <-work:
				sum += w
			case <-time.After(5 * time.Millisecond):
				select {
				case hb <- struct{}{}:
				default:
				}
			case <-done:
				result <- sum
				return
			}
		}
	}()
	for i := 1; i <= 10; i++ {
		work <- i
	}
	<-hb
	close(done)
	if sum := <-result; sum != 55 {
		t.Fatalf("processed sum %d, want 55", sum)
	}
}

// TestIdleTimeoutLoopDrains checks an idle-timer loop (Reset per item) processes all pre-buffered items before exiting on idleness.
func TestIdleTimeoutLoopDrains(t *testing.T) {
	const items = 10
	const idle = 20 * time.Millisecond
	in := make(chan int, items)
	for i := range items {
		in <- i
	}
	start := time.Now()
	res := make(chan int, 1)
	go func() {
		tm := time.NewTimer(idle)
		defer tm.Stop()
		n := 0
		for {
			select {
			case <-in:
				n++
				tm.Reset(idle)
			case <-tm.C:
				select {
				case <-in: // an item raced with the timer: process it and keep going
					n++
					tm.Reset(idle)
					continue
				default:
				}
				res <- n
				return
			}
		}
	}()
	if n := <-res; n != items {
		t.Fatalf("processed %d items, want %d", n, items)
	}
	if el := time.Since(start); el < idle {
		t.Fatalf("exited after %v, before the %v idle timeout", el, idle)
	}
}

// TestTickerLoopCancelledByContext checks a ticker-driven loop reports increasing tick counts and stops with Canceled.
func TestTickerLoopCancelledByContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ticks := make(chan int)
	type result struct {
		n   int
		err error
	}
	res := make(chan result, 1)
	go func() {
		tk := time.NewTicker(2 * time.Millisecond)
		defer tk.Stop()
		n := 0
		for {
			select {
			case <-ctx.Done():
				res <- result{n, ctx.Err()}
				return
			case <-tk.C:
				n++
				select {
				case ticks <- n:
				case <-ctx.Done():
				}
			}
		}
	}()
	last := 0
	for last < 3 {
		n := <-ticks
		if n != last+1 {
			t.Fatalf("tick count %d after %d", n, last)
		}
		last = n
	}
	cancel()
	r := <-res
	if r.err != context.Canceled || r.n < 3 {
		t.Fatalf("loop ended with n=%d err=%v", r.n, r.err)
	}
}

// TestConcurrentSleepersLowerBound checks that each of many concurrently sleeping goroutines sleeps at least its own duration.
func TestConcurrentSleepersLowerBound(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := time.Duration(i%4+1) * time.Millisecond
			start := time.Now()
			time.Sleep(d)
			if el := time.Since(start); el < d {
				t.Errorf("goroutine %d slept %v, want >= %v", i, el, d)
			}
		}()
	}
	wg.Wait()
}

// TestProducerBlockedOnSendStopsOnCancel checks a producer blocked in a send/ctx.Done select exits with Canceled, having sent values in order.
func TestProducerBlockedOnSendStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan int)
	res := make(chan error, 1)
	go func() {
		for i := 0; ; i++ {
			select {
			case out <- i:
			case <-ctx.Done():
				res <- ctx.Err()
				return
			}
		}
	}()
	for want := range 5 {
		if got := <-out; got != want {
			t.Fatalf("got %d, want %d", got, want)
		}
	}
	time.Sleep(2 * time.Millisecond) // producer is (probably) blocked sending 5
	cancel()
	if err := <-res; err != context.Canceled {
		t.Fatalf("producer returned %v", err)
	}
}

// TestSelectTimeoutNeverReady checks that a select on a never-ready channel takes the time.After branch no earlier than its duration.
func TestSelectTimeoutNeverReady(t *testing.T) {
	never := make(chan int)
	const d = 10 * time.Millisecond
	start := time.Now()
	select {
	case v := <-never:
		t.Fatalf("received %d from a channel nobody sends on", v)
	case <-time.After(d):
	}
	if el := time.Since(start); el < d {
		t.Fatalf("timeout after %v, want >= %v", el, d)
	}
}
