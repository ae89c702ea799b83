package idioms

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestAfterFuncStopOrWait(t *testing.T) {
	done := make(chan struct{})
	tm := time.AfterFunc(time.Millisecond, func() { close(done) })
	time.Sleep(time.Millisecond)
	if !tm.Stop() {
		<-done
	}
}

func TestCauseAfterParentCancel(t *testing.T) {
	parent, cancel := context.WithCancelCause(context.Background())
	child, childCancel := context.WithCancel(parent)
	defer childCancel()
	cancel(errors.New("shutdown"))
	<-child.Done()
	if !errors.Is(child.Err(), context.Canceled) || context.Cause(child).Error() != "shutdown" {
		t.Fatal(child.Err(), context.Cause(child))
	}
}

func TestPanicToError(t *testing.T) {
	errc := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				errc <- fmt.Errorf("recovered: %v", r)
			}
		}()
		var m map[string]int
		m["x"] = 1
	}()
	if err := <-errc; err == nil {
		t.Fatal("no error")
	}
}

func TestAfterZeroAndNegativeSleep(t *testing.T) {
	select {
	case <-time.After(0):
	case <-time.After(time.Second):
		t.Fatal("After(0) did not fire first")
	}
	time.Sleep(0)
	time.Sleep(-time.Second)
	tm := time.NewTimer(0)
	<-tm.C
}

func TestTimerResetReportsActive(t *testing.T) {
	tm := time.NewTimer(time.Hour)
	if !tm.Reset(time.Hour) {
		t.Fatal("Reset of an active timer reported false")
	}
	if !tm.Stop() {
		t.Fatal("Stop of an active timer reported false")
	}
	if tm.Stop() {
		t.Fatal("second Stop reported true")
	}
}

func TestWaitGroupReuse(t *testing.T) {
	var wg sync.WaitGroup
	for round := 0; round < 3; round++ {
		var n atomic.Int32
		for i := 0; i < 3; i++ {
			wg.Add(1)
			go func() { defer wg.Done(); n.Add(1) }()
		}
		wg.Wait()
		if n.Load() != 3 {
			t.Fatal(round, n.Load())
		}
	}
}

func TestBufferedLenCap(t *testing.T) {
	c := make(chan int, 3)
	c <- 1
	c <- 2
	if len(c) != 2 || cap(c) != 3 {
		t.Fatal(len(c), cap(c))
	}
}

func TestSpinUntilAfterFunc(t *testing.T) {
	var flag atomic.Bool
	time.AfterFunc(5*time.Millisecond, func() { flag.Store(true) })
	deadline := time.Now().Add(5 * time.Second)
	for !flag.Load() {
		if time.Now().After(deadline) {
			t.Fatal("AfterFunc never ran")
		}
		runtime.Gosched()
	}
}

func TestPollTickerWithDefault(t *testing.T) {
	tk := time.NewTicker(time.Millisecond)
	defer tk.Stop()
	n := 0
	for n < 3 {
		select {
		case <-tk.C:
			n++
		default:
			runtime.Gosched()
		}
	}
}

func TestMonotonicAcrossYield(t *testing.T) {
	t1 := time.Now()
	runtime.Gosched()
	t2 := time.Now()
	if t2.Before(t1) {
		t.Fatal("clock went back")
	}
	if time.Since(t1) < 0 {
		t.Fatal("negative duration")
	}
}

func TestPingPong(t *testing.T) {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
		close(pong)
	}()
	v := 0
	for i := 0; i < 500; i++ {
		ping <- v
		v = <-pong
	}
	close(ping)
	if _, ok := <-pong; ok || v != 500 {
		t.Fatal(v, ok)
	}
}

func TestRangeWithDoneSelect(t *testing.T) {
	in := make(chan int)
	done := make(chan struct{})
	out := make(chan int)
	go func() {
		defer close(out)
		sum := 0
		for {
			select {
			case v, ok := <-in:
				if !ok {
					out <- sum
					return
				}
				sum += v
			case <-done:
				return
			}
		}
	}()
	for i := 1; i <= 4; i++ {
		in <- i
	}
	close(in)
	if s := <-out; s != 10 {
		t.Fatal(s)
	}
	close(done)
}

func TestMutexTryLockEventually(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	go func() {
		time.Sleep(time.Millisecond)
		mu.Unlock()
	}()
	for !mu.TryLock() {
		time.Sleep(100 * time.Microsecond)
	}
	mu.Unlock()
}

func TestContextValuePropagates(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "v")
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	got := make(chan any)
	go func() { got <- ctx.Value(key{}) }()
	if v := <-got; v != "v" {
		t.Fatal(v)
	}
}

// withTopic returns a copy of the published map with one more key (a
// copy-on-write update: the copy is private until it is stored).
func withTopic(v *atomic.Value, topic string) map[string]int {
	cur, _ := v.Load().(map[string]int)
	next := make(map[string]int, len(cur)+1)
	for k, n := range cur {
		next[k] = n
	}
	next[topic] = len(next)
	return next
}

func count(m map[string]int) int {
	n := 0
	for range m {
		n++
	}
	return n
}

// A value built by a call inside Store's argument is published by the
// Store: a reader that loads it sees every write made while building it
// (no race), whatever the schedule.
func TestCopyOnWritePublishedByStore(t *testing.T) {
	var v atomic.Value
	var m sync.Map
	v.Store(map[string]int{})
	done := make(chan struct{})
	seen := make(chan int)
	go func() {
		most := 0
		for {
			select {
			case <-done:
				seen <- most
				return
			default:
			}
			most = max(most, count(v.Load().(map[string]int)))
			if x, ok := m.Load("k"); ok {
				most = max(most, count(x.(map[string]int)))
			}
		}
	}()
	for i := range 5 {
		v.Store(withTopic(&v, fmt.Sprint("t", i)))
		m.Store("k", withTopic(&v, "more"))
	}
	close(done)
	if most := <-seen; most > 6 {
		t.Fatalf("reader saw %d topics, at most 6 were published", most)
	}
}
