// Package modern is a go 1.22 module: each iteration has its own loop
// variables, generics and the newer sync and atomic APIs are used.
package modern

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

func Collect(ch chan int) []func() int {
	var fs []func() int
	for v := range ch {
		fs = append(fs, func() int { return v })
	}
	return fs
}

func Indexes(n int) []func() int {
	var fs []func() int
	for i := range n {
		fs = append(fs, func() int { return i })
	}
	return fs
}

// Map applies f to every element in parallel.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	var wg sync.WaitGroup
	for i, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = f(x)
		}()
	}
	wg.Wait()
	return out
}

type Stats struct {
	hits atomic.Int64
	mu   sync.RWMutex
	seen map[string]int
}

func (s *Stats) Hit(key string) {
	s.hits.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]int{}
	}
	s.seen[key]++
}

func (s *Stats) Seen(key string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.seen[key]
}

var (
	config = sync.OnceValue(func() string { return "cfg" })
	calls  int32
)

func Config() string {
	atomic.AddInt32(&calls, 1)
	return config()
}

// Pipeline sums what producers send, stopping at the deadline.
func Pipeline(ctx context.Context, n int) int {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	ch := make(chan int)
	var wg sync.WaitGroup
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case ch <- i:
			case <-ctx.Done():
			}
		}()
	}
	go func() {
		wg.Wait()
		close(ch)
	}()
	sum := 0
	for v := range ch {
		sum += v
	}
	return sum
}

// Crash panics in a goroutine-free path (line checked by the tests).
func Crash(p *Stats) int64 {
	return p.hits.Load() // MARK:panic
}
