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
	result := make(chan int)
	exited := make(chan struct{})
	go func() { // worker: reports its result, then marks the task finished
		result <- 42
		finish()
		close(exited)
	}()
	<-result
	finish() // the caller finishes the task too, in case the worker could not
	wg.Wait()
	<-exited
}

// Bug: non-atomic test-and-set before wg.Done. Interleaving: after the result hand-off
// both goroutines Load false before either Stores true; both call Done: counter -1.
// period:want panic
func TestFinish(t *testing.T) { run(false) }

// period:want none
func TestFinishFixed(t *testing.T) { run(true) }
