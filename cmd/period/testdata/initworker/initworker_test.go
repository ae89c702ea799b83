package initworker

import (
	"sync"
	"testing"
)

// Goroutines hand jobs to the worker and wait for them. When every
// controlled goroutine waits, the worker is still running a job (or about to
// take the next one): no deadlock.
func TestJobsOnInitWorker(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Do(c.Inc)
		}()
	}
	wg.Wait()
	if c.n != 3 {
		t.Fatal(c.n)
	}
}

// A genuine lost update beside the worker is still found.
func TestLostUpdateBesideInitWorker(t *testing.T) {
	c := Counter{Racy: true}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	if c.n != 2 {
		t.Fatalf("lost update: %d", c.n)
	}
}

// A genuine deadlock beside the worker is still found: two goroutines take
// two locks in opposite orders.
func TestDeadlockBesideInitWorker(t *testing.T) {
	var a, b sync.Mutex
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		a.Lock()
		Do(func() {})
		b.Lock()
		b.Unlock()
		a.Unlock()
	}()
	go func() {
		defer wg.Done()
		b.Lock()
		Do(func() {})
		a.Lock()
		a.Unlock()
		b.Unlock()
	}()
	wg.Wait()
}
