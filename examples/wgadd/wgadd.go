// Package wgadd hands jobs to worker goroutines and waits for them.
package wgadd

import "sync"

// Sum hands each job to its own worker over an unbuffered channel and adds
// the results. Each worker calls wg.Add itself, after the hand-off: if the
// caller reaches wg.Wait first, Wait sees a zero counter and returns before
// the last worker has added its job.
func Sum(jobs []int) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for _, j := range jobs {
		in := make(chan int)
		go func() {
			v := <-in
			wg.Add(1)
			defer wg.Done()
			mu.Lock()
			total += v
			mu.Unlock()
		}()
		in <- j
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return total
}

// SumFixed calls wg.Add before starting each worker.
func SumFixed(jobs []int) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for _, j := range jobs {
		in := make(chan int)
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := <-in
			mu.Lock()
			total += v
			mu.Unlock()
		}()
		in <- j
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return total
}
