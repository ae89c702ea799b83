package idioms3

import (
	"iter"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// lockedList is a slice guarded by a mutex whose iterator locks per element, never across yield.
type lockedList struct {
	mu    sync.Mutex
	items []int
}

func (l *lockedList) add(v int) {
	l.mu.Lock()
	l.items = append(l.items, v)
	l.mu.Unlock()
}

func (l *lockedList) all() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; ; i++ {
			l.mu.Lock()
			if i >= len(l.items) {
				l.mu.Unlock()
				return
			}
			v := l.items[i]
			l.mu.Unlock()
			if !yield(v) {
				return
			}
		}
	}
}

// TestPullOverMutexIterator checks that iter.Pull over a mutex-guarded list sees a prefix of the appends another goroutine makes meanwhile.
func TestPullOverMutexIterator(t *testing.T) {
	l := &lockedList{items: []int{0, 1, 2}}
	var wg sync.WaitGroup
	wg.Go(func() {
		for v := 3; v < 10; v++ {
			l.add(v)
		}
	})
	next, stop := iter.Pull(l.all())
	defer stop()
	n := 0
	for {
		v, ok := next()
		if !ok {
			break
		}
		if v != n {
			t.Fatalf("value %d at position %d", v, n)
		}
		n++
	}
	wg.Wait()
	if n < 3 || n > 10 {
		t.Fatalf("pulled %d values", n)
	}
}

// chanSeq2 ranges over a producer goroutine's channel; stopping early tells the producer to quit and joins it.
func chanSeq2(n int, joined *atomic.Bool) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		ch := make(chan string)
		quit := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			defer close(ch)
			for i := range n {
				select {
				case ch <- string(rune('a' + i)):
				case <-quit:
					return
				}
			}
		})
		defer func() {
			close(quit)
			wg.Wait()
			joined.Store(true)
		}()
		i := 0
		for s := range ch {
			if !yield(i, s) {
				return
			}
			i++
		}
	}
}

// TestPull2StopJoinsProducer checks that stop of iter.Pull2 runs the iterator's deferred join of its producer goroutine.
func TestPull2StopJoinsProducer(t *testing.T) {
	var joined atomic.Bool
	next, stop := iter.Pull2(chanSeq2(10, &joined))
	var got []string
	for range 3 {
		i, s, ok := next()
		if !ok || i != len(got) {
			t.Fatalf("next = %d %q %v", i, s, ok)
		}
		got = append(got, s)
	}
	stop()
	if !joined.Load() {
		t.Fatal("producer not joined after stop")
	}
	if !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("got %v", got)
	}
	if _, _, ok := next(); ok {
		t.Fatal("next after stop returned a value")
	}
}

// parallelSquares is a range-over-func iterator that computes squares in goroutines and yields them as they finish.
func parallelSquares(in []int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		type res struct{ i, v int }
		out := make(chan res, len(in))
		var wg sync.WaitGroup
		for i, x := range in {
			wg.Go(func() { out <- res{i, x * x} })
		}
		defer wg.Wait() // buffered: every goroutine finishes even if we stop early
		for range in {
			r := <-out
			if !yield(r.i, r.v) {
				return
			}
		}
	}
}

// TestRangeFuncStartsGoroutines checks a range-over-func loop over goroutine results, full and broken early.
func TestRangeFuncStartsGoroutines(t *testing.T) {
	in := []int{1, 2, 3, 4, 5, 6, 7, 8}
	got := make([]int, len(in))
	for i, v := range parallelSquares(in) {
		got[i] = v
	}
	for i, x := range in {
		if got[i] != x*x {
			t.Fatalf("got[%d] = %d", i, got[i])
		}
	}
	n := 0
	for range parallelSquares(in) {
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 {
		t.Fatalf("broke after %d", n)
	}
}

// TestPullNextSharedUnderMutex checks that goroutines sharing one iter.Pull next function under a mutex get each value exactly once.
func TestPullNextSharedUnderMutex(t *testing.T) {
	const n = 50
	var ticks atomic.Int64
	seq := func(yield func(int) bool) {
		for i := range n {
			ticks.Add(1)
			if !yield(i) {
				return
			}
		}
	}
	next, stop := iter.Pull(seq)
	defer stop()
	var mu sync.Mutex
	seen := make([]int, n)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				mu.Lock()
				v, ok := next()
				mu.Unlock()
				if !ok {
					return
				}
				mu.Lock()
				seen[v]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for i, c := range seen {
		if c != 1 {
			t.Fatalf("value %d seen %d times", i, c)
		}
	}
	if ticks.Load() != n {
		t.Fatalf("iterator body ran %d times", ticks.Load())
	}
}

// registry yields a snapshot of its keys taken under RLock, so the loop body may write to it.
type registry struct {
	mu sync.RWMutex
	m  map[string]int
}

func (r *registry) keys() iter.Seq[string] {
	return func(yield func(string) bool) {
		r.mu.RLock()
		ks := make([]string, 0, len(r.m))
		for k := range r.m {
			ks = append(ks, k)
		}
		r.mu.RUnlock()
		slices.Sort(ks)
		for _, k := range ks {
			if !yield(k) {
				return
			}
		}
	}
}

func (r *registry) bump(k string) {
	r.mu.Lock()
	r.m[k]++
	r.mu.Unlock()
}

// TestIteratorYieldsOutsideLock checks that a loop body can take the write lock the iterator used, while another goroutine also writes.
func TestIteratorYieldsOutsideLock(t *testing.T) {
	r := &registry{m: map[string]int{"a": 0, "b": 0, "c": 0}}
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 10 {
			r.bump("b")
		}
	})
	var order []string
	for k := range r.keys() {
		order = append(order, k)
		r.bump(k)
	}
	wg.Wait()
	if !slices.Equal(order, []string{"a", "b", "c"}) {
		t.Fatalf("order %v", order)
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.m["a"] != 1 || r.m["b"] != 11 || r.m["c"] != 1 {
		t.Fatalf("counts %v", r.m)
	}
}
