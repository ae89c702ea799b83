// Package bgticker: goroutines that predate the tests (started by TestMain,
// init and package variables' initialisers) work on real tickers, sleeps
// and timers beside the tests, which poll for their effect with virtual
// sleeps.
package bgticker

import (
	"maps"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMain runs a flusher that snapshots the metrics every 20 ms.
func TestMain(m *testing.M) {
	stop, done := make(chan struct{}), make(chan struct{})
	go flusher(stop, done)
	code := m.Run()
	close(stop)
	<-done
	os.Exit(code)
}

var (
	metricsMu sync.Mutex
	metrics   = map[string]int{}
	flushed   atomic.Pointer[map[string]int]
)

func flusher(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	tk := time.NewTicker(20 * time.Millisecond)
	defer tk.Stop()
	for {
		select {
		case <-tk.C:
			metricsMu.Lock()
			snap := maps.Clone(metrics)
			metricsMu.Unlock()
			flushed.Store(&snap)
		case <-stop:
			return
		}
	}
}

// Counts made under the mutex the flusher shares show up in a later
// snapshot within three seconds.
func TestMetricsFlushedByTestMainGoroutine(t *testing.T) {
	var wg sync.WaitGroup
	var want atomic.Int64
	for range 3 {
		wg.Go(func() {
			metricsMu.Lock()
			metrics["requests"]++
			n := int64(metrics["requests"])
			metricsMu.Unlock()
			for {
				cur := want.Load()
				if n <= cur || want.CompareAndSwap(cur, n) {
					break
				}
			}
		})
	}
	wg.Wait()
	deadline := time.Now().Add(3 * time.Second)
	for {
		if p := flushed.Load(); p != nil && int64((*p)["requests"]) >= want.Load() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("flusher never saw %d requests", want.Load())
		}
		time.Sleep(time.Millisecond)
	}
}

// sessionStore's janitor, started by a package variable's initialiser and
// never stopped (go-cache's), drops expired sessions every 20 ms.
type sessionStore struct {
	mu sync.Mutex
	m  map[string]time.Time
}

var sessions = newSessionStore(20 * time.Millisecond)

func newSessionStore(every time.Duration) *sessionStore {
	s := &sessionStore{m: make(map[string]time.Time)}
	go func() {
		for range time.Tick(every) {
			s.mu.Lock()
			now := time.Now()
			for k, exp := range s.m {
				if now.After(exp) {
					delete(s.m, k)
				}
			}
			s.mu.Unlock()
		}
	}()
	return s
}

func (s *sessionStore) add(k string, ttl time.Duration) {
	s.mu.Lock()
	s.m[k] = time.Now().Add(ttl)
	s.mu.Unlock()
}

func (s *sessionStore) has(k string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.m[k]
	return ok
}

// The janitor removes a 5 ms session within three seconds and keeps the
// hour-long ones added beside it.
func TestPackageJanitorExpiresSessions(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() { sessions.add("long"+string(rune('0'+i)), time.Hour) })
	}
	wg.Go(func() { sessions.add("short", 5*time.Millisecond) })
	wg.Wait()
	deadline := time.Now().Add(3 * time.Second)
	for sessions.has("short") {
		if time.Now().After(deadline) {
			t.Fatal("short session never expired")
		}
		time.Sleep(time.Millisecond)
	}
	for i := range 3 {
		if !sessions.has("long" + string(rune('0'+i))) {
			t.Fatalf("long session %d expired", i)
		}
	}
}

// A poller started by init sleeps 20 ms between rounds and counts them.
var rounds atomic.Int64

func init() {
	go func() {
		for {
			time.Sleep(20 * time.Millisecond)
			rounds.Add(1)
		}
	}()
}

// The poller makes two rounds within three seconds.
func TestPollerAdvances(t *testing.T) {
	start := rounds.Load()
	deadline := time.Now().Add(3 * time.Second)
	for rounds.Load() < start+2 {
		if time.Now().After(deadline) {
			t.Fatalf("poller made %d rounds in 3s", rounds.Load()-start)
		}
		time.Sleep(time.Millisecond)
	}
}

// A refresher started by a package variable re-arms a 20 ms AfterFunc from
// the function itself (a new goroutine each time).
type refresher struct {
	mu  sync.Mutex
	gen int
}

var ref = newRefresher()

func newRefresher() *refresher {
	r := &refresher{}
	var tick func()
	tick = func() {
		r.mu.Lock()
		r.gen++
		r.mu.Unlock()
		time.AfterFunc(20*time.Millisecond, tick)
	}
	time.AfterFunc(20*time.Millisecond, tick)
	return r
}

func (r *refresher) generation() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.gen
}

// The refresher makes two generations within three seconds.
func TestRefresherAdvances(t *testing.T) {
	start := ref.generation()
	deadline := time.Now().Add(3 * time.Second)
	for ref.generation() < start+2 {
		if time.Now().After(deadline) {
			t.Fatalf("refresher made %d generations in 3s", ref.generation()-start)
		}
		time.Sleep(time.Millisecond)
	}
}
