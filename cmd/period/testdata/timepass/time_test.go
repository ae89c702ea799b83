// Time passes as on a real machine, only faster where nothing but waiting
// can happen: busy workers let a sleeper wake, a goroutine that polls (a
// spin, a select with default, a deadline loop that reads the clock) does
// not freeze the clock, and a timeout set against work does not fire
// before the work is done. Every TestOK* passes under go test -race and must
// get no verdict; TestPartialProgress has a genuine bug that needs a ticker
// to fire while a goroutine works.
package timepass

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Workers busy with locks while the test sleeps, then stops them.
func TestOKBusyWorkersSleep(t *testing.T) {
	var mu sync.Mutex
	var stop atomic.Bool
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	time.Sleep(2 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	if n == 0 {
		t.Fatal("no work")
	}
}

// Work races a generous timeout.
func TestOKWorkVsTimeout(t *testing.T) {
	done := make(chan struct{})
	var mu sync.Mutex
	m := map[int]int{}
	go func() {
		defer close(done)
		var wg sync.WaitGroup
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; j < 20; j++ {
					mu.Lock()
					m[i*100+j]++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("timeout")
	}
}

// Channel ping-pong with select and a timeout case.
func TestOKPingPongSelect(t *testing.T) {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
		close(pong)
	}()
	for i := 0; i < 1000; i++ {
		select {
		case ping <- i:
		case <-time.After(100 * time.Millisecond):
			t.Fatal("send timeout")
		}
		select {
		case v := <-pong:
			if v != i+1 {
				t.Fatal(v)
			}
		case <-time.After(100 * time.Millisecond):
			t.Fatal("recv timeout")
		}
	}
	close(ping)
}

// Lock-free CAS counter against a timeout.
func TestOKCASVsTimeout(t *testing.T) {
	var c atomic.Int64
	done := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; j < 200; j++ {
					for {
						v := c.Load()
						if c.CompareAndSwap(v, v+1) {
							break
						}
					}
				}
			}()
		}
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(50 * time.Millisecond):
		t.Fatal("timeout")
	}
	if c.Load() != 800 {
		t.Fatal(c.Load())
	}
}

// Eventually-style polling with ticker and timeout.
func TestOKEventually(t *testing.T) {
	var ready atomic.Bool
	go func() {
		time.Sleep(30 * time.Millisecond)
		ready.Store(true)
	}()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	timeout := time.After(time.Second)
	for {
		select {
		case <-tick.C:
			if ready.Load() {
				return
			}
		case <-timeout:
			t.Fatal("never ready")
		}
	}
}

// Periodic runner until ctx done.
func TestOKPeriodicUntilCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var runs atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		tk := time.NewTicker(5 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
				runs.Add(1)
			}
		}
	}()
	<-done
	if r := runs.Load(); r < 5 || r > 11 {
		t.Fatalf("runs %d", r)
	}
}

// Measure elapsed around a quick op.
func TestOKQuickOpElapsed(t *testing.T) {
	var mu sync.Mutex
	start := time.Now()
	for i := 0; i < 1000; i++ {
		mu.Lock()
		mu.Unlock()
	}
	if el := time.Since(start); el > 100*time.Millisecond {
		t.Fatalf("slow: %v", el)
	}
}

// Spin on atomic without Gosched while another goroutine sleeps.
func TestOKSpinNoGosched(t *testing.T) {
	var flag atomic.Bool
	go func() { time.Sleep(5 * time.Millisecond); flag.Store(true) }()
	for !flag.Load() {
	}
}

// Timer reset loop (debounce).
func TestOKDebounce(t *testing.T) {
	fired := make(chan struct{}, 1)
	tm := time.AfterFunc(time.Hour, func() { fired <- struct{}{} })
	for i := 0; i < 5; i++ {
		tm.Reset(10 * time.Millisecond)
		time.Sleep(time.Millisecond)
	}
	select {
	case <-fired:
	case <-time.After(time.Second):
		t.Fatal("not fired")
	}
}

// Wait with deadline loop and sleep.
func TestOKWaitUntil(t *testing.T) {
	var v atomic.Int32
	go func() {
		for i := 0; i < 10; i++ {
			v.Add(1)
			time.Sleep(time.Millisecond)
		}
	}()
	deadline := time.Now().Add(5 * time.Second)
	for v.Load() < 10 {
		if time.Now().After(deadline) {
			t.Fatal("deadline")
		}
		time.Sleep(100 * time.Microsecond)
	}
}

func TestOKBusyPollSleeper(t *testing.T) {
	var flag atomic.Bool
	go func() { time.Sleep(10 * time.Millisecond); flag.Store(true) }()
	for !flag.Load() {
		runtime.Gosched()
	}
}

func TestOKSelectDefaultPoll(t *testing.T) {
	done := time.After(5 * time.Millisecond)
	n := 0
	for {
		select {
		case <-done:
			return
		default:
			n++
		}
	}
}

func TestOKDeadlineLoop(t *testing.T) {
	deadline := time.Now().Add(20 * time.Millisecond)
	var x atomic.Int64
	go func() {
		for time.Now().Before(deadline) {
			x.Add(1)
		}
	}()
	for time.Now().Before(deadline) {
	}
}

func TestOKContextAfterFunc(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	context.AfterFunc(ctx, func() { close(done) })
	cancel()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("afterfunc not run")
	}
}

// The reporter assumes it never sees a count between 0 and 2000: a tick
// during the loop (the worker preempted for 10µs) shows it one.
func TestPartialProgress(t *testing.T) {
	var done atomic.Int32
	reported := make(chan int32, 100)
	stop := make(chan struct{})
	go func() {
		tk := time.NewTicker(10 * time.Microsecond)
		defer tk.Stop()
		for {
			select {
			case <-tk.C:
				select {
				case reported <- done.Load():
				default: // full: the test drains it only at the end
				}
			case <-stop:
				close(reported)
				return
			}
		}
	}()
	for i := 0; i < 2000; i++ {
		done.Add(1)
	}
	close(stop)
	for v := range reported {
		if v != 0 && v != 2000 {
			t.Fatalf("saw partial progress %d", v)
		}
	}
}

// A context type the context package does not know (a mock clock's):
// the cancellation of its children is propagated by a goroutine.
type customCtx struct {
	context.Context
	mu   sync.Mutex
	done chan struct{}
	err  error
}

func newCustomCtx() *customCtx {
	return &customCtx{Context: context.Background(), done: make(chan struct{})}
}

func (c *customCtx) Done() <-chan struct{} { return c.done }
func (c *customCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}
func (c *customCtx) cancel() {
	c.mu.Lock()
	c.err = context.Canceled
	c.mu.Unlock()
	close(c.done)
}

// After the parent is canceled and the test sleeps a little (as a mock
// clock's Add does), the child is done.
func TestOKCustomParentContext(t *testing.T) {
	parent := newCustomCtx()
	child, stop := context.WithCancel(parent)
	defer stop()
	parent.cancel()
	time.Sleep(time.Millisecond)
	select {
	case <-child.Done():
	default:
		t.Error("child not canceled")
	}
}

var neverCalled context.CancelFunc

// The propagation goroutine of a child never canceled is not the test's
// leak.
func TestOKCustomParentNoLeak(t *testing.T) {
	parent := newCustomCtx()
	child, stop := context.WithCancel(parent)
	neverCalled = stop
	if child.Err() != nil {
		t.Fatal(child.Err())
	}
}

// A timer stopped and reset, or reset while pending, fires once.
func TestOKAfterFuncStopReset(t *testing.T) {
	var n atomic.Int32
	a := time.AfterFunc(20*time.Millisecond, func() { n.Add(1) })
	if !a.Stop() {
		t.Fatal("Stop of a pending timer returned false")
	}
	a.Reset(20 * time.Millisecond)
	b := time.AfterFunc(20*time.Millisecond, func() { n.Add(1) })
	b.Reset(30 * time.Millisecond)
	time.Sleep(100 * time.Millisecond)
	if got := n.Load(); got != 2 {
		t.Fatalf("AfterFunc ran %d times, want 2", got)
	}
}

// Events d apart as the test sleeps d between them are more than d apart
// (go-resiliency's breaker expires errors so): a sleep wakes a little after
// its duration, as on every machine, whichever goroutine records the event.
func TestOKSleepBetweenEvents(t *testing.T) {
	const d = 10 * time.Millisecond
	var mu sync.Mutex
	var last time.Time
	var wg sync.WaitGroup
	var work atomic.Int32
	apart := 0
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10*(3-i); j++ { // the earlier, the longer before the event
				work.Add(1)
			}
			mu.Lock()
			defer mu.Unlock()
			now := time.Now()
			if !last.IsZero() && now.After(last.Add(d)) {
				apart++
			}
			last = now
		}()
		time.Sleep(d)
	}
	wg.Wait()
	if apart != 2 {
		t.Fatalf("%d of 2 events more than %v apart", apart, d)
	}
}

// Reading shared data is work, not waiting: a goroutine that only reads
// (plain and atomic loads) beats a generous timeout.
func TestOKReadWorkVsTimeout(t *testing.T) {
	data := make([]int, 5000)
	flags := make([]atomic.Bool, 2000)
	for i := range data {
		data[i] = i
	}
	res := make(chan int)
	go func() {
		sum := 0
		for _, v := range data {
			sum += v
		}
		for i := range flags {
			if flags[i].Load() {
				sum++
			}
		}
		res <- sum
	}()
	select {
	case s := <-res:
		if s != 5000*4999/2 {
			t.Fatal(s)
		}
	case <-time.After(100 * time.Millisecond):
		t.Fatal("timeout")
	}
}

// Timer and ticker methods used as values (x/time/rate's Limiter.Wait
// returns timer.Stop so) and as method expressions act on the same timer.
func TestOKTimerMethodValues(t *testing.T) {
	newTimer := func(d time.Duration) (<-chan time.Time, func() bool) {
		tm := time.NewTimer(d)
		return tm.C, tm.Stop
	}
	ch, stop := newTimer(time.Millisecond)
	defer stop()
	<-ch
	tk := time.NewTicker(time.Millisecond)
	tickerStop, tickerReset := tk.Stop, tk.Reset
	tickerReset(2 * time.Millisecond)
	<-tk.C
	tickerStop()
	reset := (*time.Timer).Reset
	tm := time.NewTimer(time.Hour)
	reset(tm, time.Millisecond)
	select {
	case <-tm.C:
	case <-time.After(time.Minute):
		t.Fatal("the reset timer did not fire")
	}
}

// A ticker keeps ticking while a goroutine works and takes its ticks in a
// select with default.
func TestOKTicksWhileWorking(t *testing.T) {
	tk := time.NewTicker(100 * time.Microsecond)
	defer tk.Stop()
	var mu sync.Mutex
	n, ticks := 0, 0
	deadline := time.Now().Add(50 * time.Millisecond)
	for ticks < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("%d ticks in 50ms of work", ticks)
		}
		mu.Lock()
		n++
		mu.Unlock()
		select {
		case <-tk.C:
			ticks++
		default:
		}
	}
}

// roller is a rolling checksum, as syncthing's weak hash: its state lives
// behind a pointer, and each step of the loop below reads and writes it.
type roller struct{ a, b uint32 }

func (r *roller) roll(c byte) {
	r.a += uint32(c)
	r.b += r.a
}

// A loop that checks for cancellation with a select's default while it
// computes (a byte an iteration, as syncthing's weak hash search) is
// working, not waiting: the test's 10-second timeout must not fire.
func TestOKWorkBetweenPolls(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan uint32)
	go func(ctx context.Context) {
		r := &roller{}
		for i := 0; i < 100000; i++ {
			select {
			case <-ctx.Done():
				return
			default:
			}
			r.roll(byte(i))
		}
		done <- r.b
	}(ctx)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a computation of 100,000 steps timed out after 10 s")
	}
}

// The same computation on the goroutine's own variables: the rewriter
// proves them goroutine-local and gives them no hooks, so only the polls
// were seen, and the clock jumped to the timeout after 256 of them.
func TestOKLocalWorkBetweenPolls(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan uint32)
	go func(ctx context.Context) {
		var a, b uint32
		for i := 0; i < 100000; i++ {
			select {
			case <-ctx.Done():
				return
			default:
			}
			a += uint32(i)
			b += a
		}
		done <- b
	}(ctx)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a computation of 100,000 steps timed out after 10 s")
	}
}

// Two goroutines range over their own slices and yield after each item:
// each yield lets the other run, and neither waits for anything.
func TestOKLocalWorkBetweenYields(t *testing.T) {
	done := make(chan int)
	for w := 0; w < 2; w++ {
		go func() {
			items := make([]int, 5000)
			sum := 0
			for i := range items {
				items[i] = i
				sum += items[i]
				runtime.Gosched()
			}
			done <- sum
		}()
	}
	timeout := time.After(10 * time.Second)
	for w := 0; w < 2; w++ {
		select {
		case <-done:
		case <-timeout:
			t.Fatal("two loops over 5,000 items timed out after 10 s")
		}
	}
}
