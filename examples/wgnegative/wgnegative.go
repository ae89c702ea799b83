// Package wgnegative completes a task from whichever goroutine gets there first.
package wgnegative

import (
	"sync"
	"sync/atomic"
)

// Task is finished either by its worker or by a canceller; wg counts it once.
type Task struct {
	finished atomic.Bool
	wg       *sync.WaitGroup
}

// NewTask registers one unit of work on wg.
func NewTask(wg *sync.WaitGroup) *Task {
	wg.Add(1)
	return &Task{wg: wg}
}

// Finish loads and stores the flag in two steps: two callers can both see
// false and both call Done (panic: sync: negative WaitGroup counter).
func (t *Task) Finish() {
	if !t.finished.Load() {
		t.finished.Store(true)
		t.wg.Done()
	}
}

// FinishFixed lets exactly one caller win the flag.
func (t *Task) FinishFixed() {
	if t.finished.CompareAndSwap(false, true) {
		t.wg.Done()
	}
}
