package idioms3

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestPullSeqPanicPropagates checks that a panic in an iterator body reaches the caller of next, in a goroutine that recovers it.
func TestPullSeqPanicPropagates(t *testing.T) {
	seq := func(yield func(int) bool) {
		yield(1)
		panic("iterator broke")
	}
	got := make(chan any)
	go func() {
		next, stop := iter.Pull(seq)
		defer stop()
		defer func() { got <- recover() }()
		if v, ok := next(); !ok || v != 1 {
			t.Errorf("first next = %d %v", v, ok)
		}
		next()
		t.Error("second next returned")
	}()
	if r := <-got; r != "iterator broke" {
		t.Fatalf("recovered %v", r)
	}
}

// TestPullSeqGoexitPropagates checks that runtime.Goexit in an iterator body ends the goroutine calling next, running its deferred wg.Done.
func TestPullSeqGoexitPropagates(t *testing.T) {
	var reached atomic.Bool
	seq := func(yield func(int) bool) {
		if !yield(1) {
			return
		}
		runtime.Goexit()
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		next, stop := iter.Pull(seq)
		defer stop()
		next()
		next() // Goexit propagates here
		reached.Store(true)
	}()
	wg.Wait()
	if reached.Load() {
		t.Fatal("code after the Goexit ran")
	}
}

// TestPullAcrossGoroutines checks iter.Pull created in one goroutine, advanced in a second and stopped in a third, handed over by channels.
func TestPullAcrossGoroutines(t *testing.T) {
	var stopped atomic.Bool
	seq := func(yield func(string) bool) {
		defer stopped.Store(true)
		for _, s := range []string{"a", "b", "c", "d"} {
			if !yield(s) {
				return
			}
		}
	}
	type puller struct {
		next func() (string, bool)
		stop func()
	}
	toA, toB := make(chan puller), make(chan puller)
	var got []string
	done := make(chan struct{})
	go func() { // A: takes two values
		p := <-toA
		for range 2 {
			s, _ := p.next()
			got = append(got, s)
		}
		toB <- p
	}()
	go func() { // B: stops
		p := <-toB
		p.stop()
		close(done)
	}()
	next, stop := iter.Pull(seq)
	toA <- puller{next, stop}
	<-done
	if !stopped.Load() || !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("stopped %v got %v", stopped.Load(), got)
	}
	if _, ok := next(); ok {
		t.Fatal("next after stop")
	}
}

// TestMapsKeysUnderRLock checks slices.Sorted(maps.Keys(m)) taken under RLock while writers add keys under Lock.
func TestMapsKeysUnderRLock(t *testing.T) {
	var mu sync.RWMutex
	m := map[int]string{}
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			for i := range 10 {
				mu.Lock()
				m[w*10+i] = fmt.Sprint(w)
				mu.Unlock()
			}
		})
	}
	for range 3 {
		wg.Go(func() {
			mu.RLock()
			keys := slices.Sorted(maps.Keys(m))
			vals := slices.Collect(maps.Values(m))
			mu.RUnlock()
			if len(keys) != len(vals) || !slices.IsSorted(keys) {
				t.Errorf("keys %v vals %d", keys, len(vals))
			}
		})
	}
	wg.Wait()
	if keys := slices.Sorted(maps.Keys(m)); len(keys) != 30 || keys[29] != 29 {
		t.Fatalf("keys %v", keys)
	}
}

// TestOnceValueBlocksCallers checks goroutines blocked in a sync.OnceValue whose function waits on a channel the test closes later.
func TestOnceValueBlocksCallers(t *testing.T) {
	ready := make(chan struct{})
	var started atomic.Int64
	get := sync.OnceValue(func() string {
		<-ready
		return "loaded"
	})
	results := make(chan string, 5)
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			started.Add(1)
			results <- get()
		})
	}
	for started.Load() < 5 {
		runtime.Gosched()
	}
	if len(results) != 0 {
		t.Fatal("a caller returned before the function finished")
	}
	close(ready)
	wg.Wait()
	close(results)
	for r := range results {
		if r != "loaded" {
			t.Fatalf("got %q", r)
		}
	}
}

type payload struct {
	id   int
	data [8]int
	next *payload
}

// TestGCDuringHandoffs checks plain data handed over through a buffered channel, a WaitGroup and an atomic.Pointer while another goroutine calls runtime.GC (up to 30 times).
func TestGCDuringHandoffs(t *testing.T) {
	stop := make(chan struct{})
	var gcs sync.WaitGroup
	gcs.Go(func() { // at most 30 collections, so the test stays short
		for range 30 {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	})
	ch := make(chan *payload, 4)
	go func() {
		for i := range 8 {
			p := &payload{id: i}
			for j := range p.data {
				p.data[j] = i * j
			}
			ch <- p
		}
		close(ch)
	}()
	for p := range ch {
		if p.data[7] != p.id*7 {
			t.Errorf("payload %d data %v", p.id, p.data)
		}
	}
	res := make([]payload, 4)
	var wg sync.WaitGroup
	for i := range res {
		wg.Go(func() { res[i] = payload{id: i, data: [8]int{i}} })
	}
	wg.Wait()
	var pub atomic.Pointer[payload]
	var readers sync.WaitGroup
	readers.Go(func() {
		for pub.Load() == nil {
			runtime.Gosched()
		}
		if p := pub.Load(); p.next == nil || p.next.id != 3 {
			t.Errorf("published payload %+v", p)
		}
	})
	pub.Store(&payload{id: 1, next: &res[3]})
	readers.Wait()
	close(stop)
	gcs.Wait()
	for i, p := range res {
		if p.id != i || p.data[0] != i {
			t.Fatalf("res[%d] = %+v", i, p)
		}
	}
}

// TestCleanupRegisteredInCleanup checks a cleanup that registers another cleanup, which joins a goroutine the first one started.
func TestCleanupRegisteredInCleanup(t *testing.T) {
	var order []string
	var mu sync.Mutex
	note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		if !slices.Equal(order, []string{"outer", "drain", "joined"}) {
			t.Errorf("order %v", order)
		}
	})
	t.Cleanup(func() {
		note("outer")
		done := make(chan struct{})
		go func() {
			defer close(done)
			note("drain")
		}()
		t.Cleanup(func() {
			<-done
			note("joined")
		})
	})
}

// merge is a generic fan-in of several channels into one, closed when all are drained.
func merge[T any](ins ...<-chan T) <-chan T {
	out := make(chan T)
	var wg sync.WaitGroup
	for _, in := range ins {
		wg.Go(func() {
			for v := range in {
				out <- v
			}
		})
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func gen[T any](vs ...T) <-chan T {
	ch := make(chan T)
	go func() {
		defer close(ch)
		for _, v := range vs {
			ch <- v
		}
	}()
	return ch
}

// TestGenericMergeChannels checks a generic fan-in over three generator goroutines, keeping each source's order.
func TestGenericMergeChannels(t *testing.T) {
	var got []string
	for s := range merge(gen("a1", "a2", "a3"), gen("b1", "b2"), gen[string]()) {
		got = append(got, s)
	}
	var as, bs []string
	for _, s := range got {
		if s[0] == 'a' {
			as = append(as, s)
		} else {
			bs = append(bs, s)
		}
	}
	if !slices.Equal(as, []string{"a1", "a2", "a3"}) || !slices.Equal(bs, []string{"b1", "b2"}) {
		t.Fatalf("got %v", got)
	}
}

// spinLock is a test-and-set lock that spins without yielding.
type spinLock struct{ v atomic.Int32 }

func (l *spinLock) Lock() {
	for !l.v.CompareAndSwap(0, 1) {
	}
}

func (l *spinLock) Unlock() { l.v.Store(0) }

// TestSpinLockNoGosched checks a busy-waiting CAS spinlock protecting a plain counter.
func TestSpinLockNoGosched(t *testing.T) {
	var l spinLock
	n := 0
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for range 50 {
				l.Lock()
				n++
				l.Unlock()
			}
		})
	}
	wg.Wait()
	if n != 150 {
		t.Fatalf("n = %d", n)
	}
}

// TestBusyWaitOnClock checks goroutines that busy-wait on time.Since for 2 ms and report the elapsed time.
func TestBusyWaitOnClock(t *testing.T) {
	var wg sync.WaitGroup
	elapsed := make([]time.Duration, 3)
	for i := range elapsed {
		wg.Go(func() {
			start := time.Now()
			for time.Since(start) < 2*time.Millisecond {
			}
			elapsed[i] = time.Since(start)
		})
	}
	wg.Wait()
	for i, e := range elapsed {
		if e < 2*time.Millisecond {
			t.Fatalf("goroutine %d waited %v", i, e)
		}
	}
}

// TestIOPipeConcurrentWriters checks that io.Pipe gates parallel Writes: every line a writer writes in one call arrives whole.
func TestIOPipeConcurrentWriters(t *testing.T) {
	pr, pw := io.Pipe()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 5 {
				line := fmt.Sprintf("writer-%d-line-%d-%s\n", w, i, strings.Repeat("x", 20))
				if _, err := pw.Write([]byte(line)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	go func() {
		wg.Wait()
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	next := make([]int, 4)
	for sc.Scan() {
		var w, i int
		var xs string
		if _, err := fmt.Sscanf(strings.ReplaceAll(sc.Text(), "-", " "), "writer %d line %d %s", &w, &i, &xs); err != nil || len(xs) != 20 {
			t.Fatalf("torn line %q: %v", sc.Text(), err)
		}
		if i != next[w] {
			t.Fatalf("writer %d line %d, want %d", w, i, next[w])
		}
		next[w]++
	}
	if !slices.Equal(next, []int{5, 5, 5, 5}) {
		t.Fatalf("lines per writer %v", next)
	}
}
