package idioms2

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// errGroup is a hand-written errgroup: the first error cancels the shared context and is returned by Wait.
type errGroup struct {
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
	cancel  context.CancelFunc
}

func withContext(ctx context.Context) (*errGroup, context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	return &errGroup{cancel: cancel}, ctx
}

func (g *errGroup) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.errOnce.Do(func() {
				g.err = err
				g.cancel()
			})
		}
	}()
}

func (g *errGroup) Wait() error {
	g.wg.Wait()
	g.cancel()
	return g.err
}

// TestErrGroupFirstErrorCancels checks that the first error cancels siblings, which return ctx.Err(), and Wait returns that first error.
func TestErrGroupFirstErrorCancels(t *testing.T) {
	errBoom := errors.New("boom")
	g, ctx := withContext(context.Background())
	var cancelled atomic.Int64
	for i := range 5 {
		g.Go(func() error {
			if i == 2 {
				time.Sleep(time.Millisecond)
				return errBoom
			}
			<-ctx.Done()
			if errors.Is(ctx.Err(), context.Canceled) {
				cancelled.Add(1)
			}
			return ctx.Err()
		})
	}
	if err := g.Wait(); err != errBoom {
		t.Fatalf("Wait = %v, want %v", err, errBoom)
	}
	if got := cancelled.Load(); got != 4 {
		t.Fatalf("%d siblings saw Canceled, want 4", got)
	}
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("ctx.Err() = %v", ctx.Err())
	}
}

// sfCall and sfGroup are a hand-written singleflight.
type sfCall struct {
	wg  sync.WaitGroup
	val int
	err error
}

type sfGroup struct {
	mu     sync.Mutex
	m      map[string]*sfCall
	onJoin func() // called with mu held whenever a caller registers for a key
}

func (g *sfGroup) Do(key string, fn func() (int, error)) (v int, err error, shared bool) {
	g.mu.Lock()
	if g.m == nil {
		g.m = make(map[string]*sfCall)
	}
	if c, ok := g.m[key]; ok {
		if g.onJoin != nil {
			g.onJoin()
		}
		g.mu.Unlock()
		c.wg.Wait()
		return c.val, c.err, true
	}
	c := &sfCall{}
	c.wg.Add(1)
	g.m[key] = c
	if g.onJoin != nil {
		g.onJoin()
	}
	g.mu.Unlock()

	c.val, c.err = fn()
	c.wg.Done()

	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
	return c.val, c.err, false
}

// TestSingleflightSuppression checks that N concurrent callers for one key run the function once and all get its result.
func TestSingleflightSuppression(t *testing.T) {
	const n = 10
	allJoined := make(chan struct{})
	joined := 0
	g := &sfGroup{}
	g.onJoin = func() {
		joined++
		if joined == n {
			close(allJoined)
		}
	}
	gate := make(chan struct{})
	var calls atomic.Int64
	fn := func() (int, error) {
		calls.Add(1)
		<-gate
		return 42, nil
	}
	var sharedCount atomic.Int64
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err, shared := g.Do("key", fn)
			if v != 42 || err != nil {
				t.Errorf("Do = %d, %v", v, err)
			}
			if shared {
				sharedCount.Add(1)
			}
		}()
	}
	<-allJoined
	close(gate)
	wg.Wait()
	if got := calls.Load(); got != 1 {
		t.Fatalf("fn ran %d times, want 1", got)
	}
	if got := sharedCount.Load(); got != n-1 {
		t.Fatalf("%d callers shared, want %d", got, n-1)
	}
	// The key is forgotten once the call completes, so a later call runs fn again.
	g.onJoin = nil
	if v, _, shared := g.Do("key", fn); v != 42 || shared {
		t.Fatalf("later Do = %d shared=%v", v, shared)
	}
	if got := calls.Load(); got != 2 {
		t.Fatalf("fn ran %d times after second Do, want 2", got)
	}
}

// TestOnceFuncManyGoroutines checks that sync.OnceFunc runs once and every caller observes its effect after returning.
func TestOnceFuncManyGoroutines(t *testing.T) {
	n := 0
	f := sync.OnceFunc(func() { n++ })
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
			if n != 1 {
				t.Errorf("after f(), n = %d", n)
			}
		}()
	}
	wg.Wait()
	if n != 1 {
		t.Fatalf("n = %d, want 1", n)
	}
}

// TestOnceValuesManyGoroutines checks that sync.OnceValues computes once and hands every goroutine the same pair.
func TestOnceValuesManyGoroutines(t *testing.T) {
	errSentinel := errors.New("sentinel")
	var calls atomic.Int64
	get := sync.OnceValues(func() ([]int, error) {
		calls.Add(1)
		return []int{1, 2, 3}, errSentinel
	})
	const n = 50
	firsts := make([]*int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := get()
			if len(s) != 3 || s[2] != 3 || err != errSentinel {
				t.Errorf("got %v, %v", s, err)
				return
			}
			firsts[i] = &s[0]
		}()
	}
	wg.Wait()
	if got := calls.Load(); got != 1 {
		t.Fatalf("function ran %d times", got)
	}
	for i := 1; i < n; i++ {
		if firsts[i] != firsts[0] {
			t.Fatalf("goroutine %d got a different slice", i)
		}
	}
}

type tnode struct {
	v    int
	next *tnode
}

// tstack is a lock-free Treiber stack.
type tstack struct{ head atomic.Pointer[tnode] }

func (s *tstack) push(v int) {
	n := &tnode{v: v}
	for {
		old := s.head.Load()
		n.next = old
		if s.head.CompareAndSwap(old, n) {
			return
		}
	}
}

func (s *tstack) pop() (int, bool) {
	for {
		old := s.head.Load()
		if old == nil {
			return 0, false
		}
		if s.head.CompareAndSwap(old, old.next) {
			return old.v, true
		}
	}
}

// TestTreiberStack checks that concurrent pushers and poppers on an atomic.Pointer stack lose and duplicate nothing.
func TestTreiberStack(t *testing.T) {
	var s tstack
	const pushers, per = 4, 250
	popped := make([][]int, 4)
	var wg sync.WaitGroup
	for p := range pushers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				s.push(p*per + i)
			}
		}()
	}
	for p := range popped {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 300 {
				if v, ok := s.pop(); ok {
					popped[p] = append(popped[p], v)
				} else {
					runtime.Gosched()
				}
			}
		}()
	}
	wg.Wait()
	seen := make(map[int]int)
	for _, vs := range popped {
		for _, v := range vs {
			seen[v]++
		}
	}
	for {
		v, ok := s.pop()
		if !ok {
			break
		}
		seen[v]++
	}
	if len(seen) != pushers*per {
		t.Fatalf("saw %d distinct values, want %d", len(seen), pushers*per)
	}
	for v, c := range seen {
		if c != 1 || v < 0 || v >= pushers*per {
			t.Fatalf("value %d seen %d times", v, c)
		}
	}
}

// TestRCUConfigMap checks copy-on-write config maps published via atomic.Pointer are always internally consistent and monotonic.
func TestRCUConfigMap(t *testing.T) {
	var cfg atomic.Pointer[map[string]int]
	initial := map[string]int{"version": 0, "a": 0, "b": 0}
	cfg.Store(&initial)
	const versions = 100
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for v := 1; v <= versions; v++ {
			old := *cfg.Load()
			m := make(map[string]int, len(old))
			for k, x := range old {
				m[k] = x
			}
			m["version"], m["a"], m["b"] = v, v, -v
			cfg.Store(&m)
			if v%10 == 0 {
				runtime.Gosched()
			}
		}
	}()
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := -1
			for range 200 {
				m := *cfg.Load()
				if m["a"]+m["b"] != 0 || m["a"] != m["version"] {
					t.Errorf("inconsistent snapshot %v", m)
					return
				}
				if m["version"] < last {
					t.Errorf("version went backwards: %d after %d", m["version"], last)
					return
				}
				last = m["version"]
				runtime.Gosched()
			}
		}()
	}
	wg.Wait()
	if v := (*cfg.Load())["version"]; v != versions {
		t.Fatalf("final version %d, want %d", v, versions)
	}
}

// broker is a pub/sub hub run by a single goroutine.
type broker struct {
	sub, unsub chan chan string
	pub        chan string
	quit, done chan struct{}
}

func newBroker() *broker {
	b := &broker{
		sub:   make(chan chan string),
		unsub: make(chan chan string),
		pub:   make(chan string),
		quit:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	go b.run()
	return b
}

func (b *broker) run() {
	defer close(b.done)
	subs := make(map[chan string]struct{})
	for {
		select {
		case c := <-b.sub:
			subs[c] = struct{}{}
		case c := <-b.unsub:
			delete(subs, c)
			close(c)
		case m := <-b.pub:
			for c := range subs {
				c <- m
			}
		case <-b.quit:
			for c := range subs {
				close(c)
			}
			return
		}
	}
}

// TestPubSubBroker checks subscribe/publish/unsubscribe ordering through a broker goroutine with live subscriber goroutines.
func TestPubSubBroker(t *testing.T) {
	b := newBroker()
	const subs = 3
	chans := make([]chan string, subs)
	results := make([]chan []string, subs)
	for i := range subs {
		chans[i] = make(chan string)
		results[i] = make(chan []string, 1)
		go func() {
			var got []string
			for m := range chans[i] {
				got = append(got, m)
			}
			results[i] <- got
		}()
		b.sub <- chans[i]
	}
	for i := range 5 {
		b.pub <- fmt.Sprintf("m%d", i)
	}
	b.unsub <- chans[0]
	b.pub <- "m5"
	close(b.quit)
	<-b.done

	if got := strings.Join(<-results[0], ","); got != "m0,m1,m2,m3,m4" {
		t.Errorf("unsubscribed subscriber got %s", got)
	}
	for i := 1; i < subs; i++ {
		if got := strings.Join(<-results[i], ","); got != "m0,m1,m2,m3,m4,m5" {
			t.Errorf("subscriber %d got %s", i, got)
		}
	}
}

// cbarrier is a reusable barrier built on sync.Cond with a generation counter.
type cbarrier struct {
	mu         sync.Mutex
	cond       *sync.Cond
	n, count   int
	generation int
}

func newCBarrier(n int) *cbarrier {
	b := &cbarrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *cbarrier) Wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	gen := b.generation
	b.count++
	if b.count == b.n {
		b.count = 0
		b.generation++
		b.cond.Broadcast()
		return
	}
	for gen == b.generation {
		b.cond.Wait()
	}
}

// TestCondGenerationBarrier checks a sync.Cond generation barrier reused over 3 rounds: after each, all workers' writes are visible.
func TestCondGenerationBarrier(t *testing.T) {
	const workers, rounds = 4, 3
	b := newCBarrier(workers)
	var data [rounds][workers]int
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				data[r][w] = r + 1
				b.Wait()
				for j := range workers {
					if data[r][j] != r+1 {
						t.Errorf("round %d: worker %d sees data[%d]=%d", r, w, j, data[r][j])
					}
				}
			}
		}()
	}
	wg.Wait()
	if b.generation != rounds || b.count != 0 {
		t.Fatalf("generation %d count %d", b.generation, b.count)
	}
}

// TestOrderedResultsViaReplyChannels checks that per-job reply channels yield results in submission order despite a worker pool.
func TestOrderedResultsViaReplyChannels(t *testing.T) {
	type job struct {
		n     int
		reply chan int
	}
	const njobs = 30
	jobs := make(chan job)
	for range 4 {
		go func() {
			for j := range jobs {
				if j.n%3 == 0 {
					time.Sleep(time.Millisecond)
				}
				j.reply <- j.n * j.n
			}
		}()
	}
	replies := make([]chan int, njobs)
	for i := range replies {
		replies[i] = make(chan int, 1)
	}
	go func() {
		for i := range njobs {
			jobs <- job{i, replies[i]}
		}
		close(jobs)
	}()
	for i, r := range replies {
		if v := <-r; v != i*i {
			t.Fatalf("result %d = %d, want %d", i, v, i*i)
		}
	}
}

// TestBoundedParallelMapWithErrors checks a semaphore-bounded parallel map never exceeds the limit and collects every error.
func TestBoundedParallelMapWithErrors(t *testing.T) {
	const limit, n = 3, 20
	var active, maxActive atomic.Int64
	f := func(x int) (int, error) {
		cur := active.Add(1)
		for {
			m := maxActive.Load()
			if cur <= m || maxActive.CompareAndSwap(m, cur) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		active.Add(-1)
		if x%5 == 0 {
			return 0, fmt.Errorf("bad input %d", x)
		}
		return x * 2, nil
	}
	sem := make(chan struct{}, limit)
	errs := make(chan error, n)
	out := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			v, err := f(i)
			if err != nil {
				errs <- fmt.Errorf("item %d: %w", i, err)
				return
			}
			out[i] = v
		}()
	}
	wg.Wait()
	close(errs)
	nerr := 0
	for range errs {
		nerr++
	}
	if nerr != 4 {
		t.Errorf("collected %d errors, want 4", nerr)
	}
	if m := maxActive.Load(); m > limit || m < 1 {
		t.Errorf("max concurrency %d, limit %d", m, limit)
	}
	for i, v := range out {
		want := i * 2
		if i%5 == 0 {
			want = 0
		}
		if v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
}

// TestWaitGroupRecoverPanicsToErrors checks that worker panics are recovered before wg.Done and become per-worker errors.
func TestWaitGroupRecoverPanicsToErrors(t *testing.T) {
	errBoom := errors.New("boom")
	const n = 10
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					if e, ok := r.(error); ok {
						errs[i] = fmt.Errorf("worker %d: %w", i, e)
					} else {
						errs[i] = fmt.Errorf("worker %d: %v", i, r)
					}
				}
			}()
			switch i % 3 {
			case 0:
				panic(errBoom)
			case 1:
				panic(fmt.Sprintf("string panic %d", i))
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		switch i % 3 {
		case 0:
			if !errors.Is(err, errBoom) {
				t.Errorf("worker %d err %v, want boom", i, err)
			}
		case 1:
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("string panic %d", i)) {
				t.Errorf("worker %d err %v", i, err)
			}
		default:
			if err != nil {
				t.Errorf("worker %d unexpected err %v", i, err)
			}
		}
	}
}

// TestAtomicVsMutexCounter checks that 100 goroutines incrementing an atomic.Int64 and a mutex-guarded int agree on the total.
func TestAtomicVsMutexCounter(t *testing.T) {
	var a atomic.Int64
	var mu sync.Mutex
	m := 0
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				a.Add(1)
				mu.Lock()
				m++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if a.Load() != 10000 || m != 10000 {
		t.Fatalf("atomic %d mutex %d, want 10000", a.Load(), m)
	}
}

// TestSyncMapLoadOrStoreOneWinner checks that among racing LoadOrStore calls exactly one stores and all see its value.
func TestSyncMapLoadOrStoreOneWinner(t *testing.T) {
	var m sync.Map
	const n = 20
	type res struct {
		actual int
		loaded bool
	}
	results := make([]res, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			v, loaded := m.LoadOrStore("k", i)
			results[i] = res{v.(int), loaded}
		}()
	}
	close(start)
	wg.Wait()
	winner := -1
	for i, r := range results {
		if !r.loaded {
			if winner != -1 {
				t.Fatalf("both %d and %d stored", winner, i)
			}
			winner = i
		}
	}
	if winner == -1 {
		t.Fatal("nobody stored")
	}
	for i, r := range results {
		if r.actual != winner {
			t.Fatalf("goroutine %d saw %d, winner %d", i, r.actual, winner)
		}
	}
	if v, _ := m.Load("k"); v != winner {
		t.Fatalf("map holds %v, winner %d", v, winner)
	}
}

// TestReflectSelectManyChannels checks a dynamic reflect.Select fan-in receives every value, in per-channel order, until all close.
func TestReflectSelectManyChannels(t *testing.T) {
	const nch, per = 6, 20
	cases := make([]reflect.SelectCase, nch)
	ids := make([]int, nch)
	for i := range nch {
		ch := make(chan int)
		cases[i] = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ch)}
		ids[i] = i
		go func() {
			for j := range per {
				ch <- i*1000 + j
			}
			close(ch)
		}()
	}
	next := make([]int, nch)
	total := 0
	for len(cases) > 0 {
		chosen, v, ok := reflect.Select(cases)
		if !ok {
			cases = append(cases[:chosen], cases[chosen+1:]...)
			ids = append(ids[:chosen], ids[chosen+1:]...)
			continue
		}
		id := ids[chosen]
		x := int(v.Int())
		if x != id*1000+next[id] {
			t.Fatalf("channel %d delivered %d, want %d", id, x, id*1000+next[id])
		}
		next[id]++
		total++
	}
	if total != nch*per {
		t.Fatalf("received %d values, want %d", total, nch*per)
	}
}

// TestContextCancelThreeLevels checks that cancelling the root propagates through three levels of goroutines with child contexts.
func TestContextCancelThreeLevels(t *testing.T) {
	root, cancel := context.WithCancel(context.Background())
	defer cancel()
	const depth = 3
	started := make(chan int, depth)
	errs := make([]error, depth)
	var wg sync.WaitGroup
	var spawn func(parent context.Context, level int)
	spawn = func(parent context.Context, level int) {
		defer wg.Done()
		ctx, c := context.WithCancel(parent)
		defer c()
		if level+1 < depth {
			wg.Add(1)
			go spawn(ctx, level+1)
		}
		if ctx.Err() != nil {
			errs[level] = errors.New("context done before root cancel")
			started <- level
			return
		}
		started <- level
		<-ctx.Done()
		if errs[level] == nil {
			errs[level] = ctx.Err()
		}
	}
	wg.Add(1)
	go spawn(root, 0)
	for range depth {
		<-started
	}
	cancel()
	wg.Wait()
	for i, err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("level %d: err %v, want Canceled", i, err)
		}
	}
}

// parkedHelper blocks until release is closed; it exists to be found by name in a goroutine dump.
//
//go:noinline
func parkedHelper(started chan<- struct{}, release <-chan struct{}) {
	close(started)
	<-release
}

// TestRuntimeStackAllGoroutines checks that runtime.Stack(buf, true) includes this test and a parked helper goroutine.
func TestRuntimeStackAllGoroutines(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		parkedHelper(started, release)
	}()
	<-started
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	close(release)
	<-done
	dump := string(buf)
	for _, want := range []string{"TestRuntimeStackAllGoroutines", "idioms2.parkedHelper"} {
		if !strings.Contains(dump, want) {
			t.Errorf("stack dump lacks %q", want)
		}
	}
}

// lockedBuffer is a mutex-guarded bytes.Buffer.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLogConcurrentWriters checks that a log.Logger shared by 20 goroutines emits every line intact.
func TestLogConcurrentWriters(t *testing.T) {
	var lb lockedBuffer
	lg := log.New(&lb, "w ", 0)
	const gs, per = 20, 25
	var wg sync.WaitGroup
	for g := range gs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				lg.Printf("g=%d i=%d", g, i)
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(lb.String(), "\n"), "\n")
	if len(lines) != gs*per {
		t.Fatalf("%d lines, want %d", len(lines), gs*per)
	}
	seen := make(map[string]bool)
	for _, l := range lines {
		var g, i int
		if _, err := fmt.Sscanf(l, "w g=%d i=%d", &g, &i); err != nil || g < 0 || g >= gs || i < 0 || i >= per {
			t.Fatalf("malformed line %q", l)
		}
		if seen[l] {
			t.Fatalf("duplicate line %q", l)
		}
		seen[l] = true
	}
}

// TestSetenvTempDirGoroutineFiles checks that goroutines see a t.Setenv value and their files in t.TempDir can be read back.
func TestSetenvTempDirGoroutineFiles(t *testing.T) {
	t.Setenv("IDIOMS5_DIR", t.TempDir())
	const n = 8
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir := os.Getenv("IDIOMS5_DIR")
			if dir == "" {
				errs <- errors.New("IDIOMS5_DIR not set")
				return
			}
			name := filepath.Join(dir, fmt.Sprintf("f%d.txt", i))
			if err := os.WriteFile(name, []byte(fmt.Sprintf("content %d", i)), 0o600); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	dir := os.Getenv("IDIOMS5_DIR")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != n {
		t.Fatalf("%d files, want %d", len(entries), n)
	}
	for i := range n {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("f%d.txt", i)))
		if err != nil || string(b) != fmt.Sprintf("content %d", i) {
			t.Fatalf("file %d: %q, %v", i, b, err)
		}
	}
}

// TestParallelSubtestsOwnSlots checks that parallel subtests each fill their own slot and all finish before the group's t.Run returns.
func TestParallelSubtestsOwnSlots(t *testing.T) {
	const n = 8
	slots := make([]int, n)
	t.Run("group", func(t *testing.T) {
		for i := range n {
			t.Run(fmt.Sprintf("slot%d", i), func(t *testing.T) {
				t.Parallel()
				time.Sleep(time.Duration(i%3) * time.Millisecond)
				slots[i] = i*i + 1
			})
		}
	})
	for i, v := range slots {
		if v != i*i+1 {
			t.Fatalf("slot %d = %d, want %d", i, v, i*i+1)
		}
	}
}

var (
	allocSink []byte
	allocSize = 1024
)

// TestAllocsPerRun checks testing.AllocsPerRun: a reuse-buffer loop allocates (almost) nothing and an escaping make allocates.
func TestAllocsPerRun(t *testing.T) {
	buf := make([]int, 0, 64)
	none := testing.AllocsPerRun(1000, func() {
		buf = buf[:0]
		for i := range 64 {
			buf = append(buf, i)
		}
	})
	if none > 2 {
		t.Errorf("append into preallocated buffer: %v allocs/run, want <= 2", none)
	}
	some := testing.AllocsPerRun(100, func() {
		allocSink = make([]byte, allocSize)
	})
	if some < 1 {
		t.Errorf("escaping make: %v allocs/run, want >= 1", some)
	}
}
