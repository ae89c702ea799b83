// Package registry keeps workers in package-level variables, as circuit
// breakers, metric registries and connection pools do: a worker left
// waiting for jobs there is not a leak (code yet to run can still reach it
// and send it work or stop it), one dropped from them is.
package registry

import (
	"sync"
	"sync/atomic"
)

// Worker runs jobs sent on its channel until it is closed.
type Worker struct {
	jobs chan func()
}

// NewWorker starts a worker.
func NewWorker() *Worker {
	w := &Worker{jobs: make(chan func())}
	go w.run()
	return w
}

func (w *Worker) run() {
	for job := range w.jobs {
		job()
	}
}

// Do runs f on the worker and waits for it.
func (w *Worker) Do(f func()) {
	done := make(chan struct{})
	w.jobs <- func() { f(); close(done) }
	<-done
}

var (
	mu      sync.Mutex
	workers = map[string]*Worker{}
	byName  sync.Map
	current atomic.Pointer[Worker]
)

// Get returns the worker registered under name, starting it if need be.
func Get(name string) *Worker {
	mu.Lock()
	defer mu.Unlock()
	w := workers[name]
	if w == nil {
		w = NewWorker()
		workers[name] = w
	}
	return w
}

// Forget drops every worker without stopping it (hystrix-go's Flush).
func Forget() {
	mu.Lock()
	defer mu.Unlock()
	clear(workers)
}

// Store keeps w in a sync.Map under name.
func Store(name string, w *Worker) { byName.Store(name, w) }

// SetCurrent makes w the current worker.
func SetCurrent(w *Worker) { current.Store(w) }
