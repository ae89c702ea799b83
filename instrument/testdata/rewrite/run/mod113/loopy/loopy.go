// Package loopy is a go 1.13 module: loop variables are shared by all
// iterations, and the rewrite must keep it so.
package loopy

import (
	"sync"
	"time"
)

// Collect returns one closure per received value; in go 1.13 they all see
// the last value.
func Collect(ch chan int) []func() int {
	var fs []func() int
	for v := range ch {
		fs = append(fs, func() int { return v })
	}
	return fs
}

// Indexes does the same with a three-clause loop.
func Indexes(n int) []func() int {
	var fs []func() int
	for i := 0; i < n; i++ {
		fs = append(fs, func() int { return i })
	}
	return fs
}

// Counter is incremented by goroutines under a mutex.
type Counter struct {
	sync.Mutex
	n int
}

func (c *Counter) Inc() {
	c.Lock()
	defer c.Unlock()
	c.n++
}

func (c *Counter) Get() int {
	c.Lock()
	defer c.Unlock()
	return c.n
}

var total int

// Spawn starts n goroutines that each add their index to total.
func Spawn(n int) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			mu.Lock()
			total += k
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	return total
}

// First returns the first value any channel delivers, or -1 on timeout.
func First(a, b chan int) int {
	select {
	case v := <-a:
		return v
	case v, ok := <-b:
		if !ok {
			return -2
		}
		return v
	case <-time.After(time.Second):
		return -1
	}
}

// Crash panics on purpose (line checked by the tests).
func Crash() {
	var m map[string]int
	m["x"] = 1 // MARK:panic
}
