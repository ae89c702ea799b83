package wgnegative

import (
	"sync"
	"testing"
)

func run(fixed bool) {
	var wg sync.WaitGroup
	task := NewTask(&wg)
	finish := task.Finish
	if fixed {
		finish = task.FinishFixed
	}
	exited := make(chan struct{}, 2)
	go func() { finish(); exited <- struct{}{} }() // worker
	go func() { finish(); exited <- struct{}{} }() // canceller
	wg.Wait()
	<-exited
	<-exited
}

// Bug: non-atomic test-and-set before wg.Done. Interleaving: both goroutines Load false,
// both Store true and call Done: the counter goes to -1.
// period:want panic
func TestFinish(t *testing.T) { run(false) }

// period:want none
func TestFinishFixed(t *testing.T) { run(true) }
