package registry

import "testing"

// The worker stays registered: not a leak.
func TestRegisteredWorker(t *testing.T) {
	Forget() // the worker an earlier run registered ended with it
	n := 0
	Get("a").Do(func() { n++ })
	if n != 1 {
		t.Fatal("job not run")
	}
}

// The worker is dropped from the registry, still waiting: a leak.
func TestForgottenWorker(t *testing.T) {
	Get("b").Do(func() {})
	Forget()
}

// Never registered: a leak.
func TestLocalWorker(t *testing.T) {
	NewWorker().Do(func() {})
}

// In a sync.Map and behind an atomic.Pointer: not leaks.
func TestWorkerInSyncMapAndAtomicPointer(t *testing.T) {
	a, b := NewWorker(), NewWorker()
	Store("c", a)
	SetCurrent(b)
	a.Do(func() {})
	b.Do(func() {})
}

// pending holds a request whose reply channel a goroutine waits on; the
// request waits in a buffered channel a test variable holds.
type request struct{ reply chan int }

var pending = make(chan request, 1)

// Reached through a test file's variable and a channel's buffer: not a leak.
func TestWaiterOnQueuedRequest(t *testing.T) {
	pending = make(chan request, 1)
	r := request{reply: make(chan int)}
	pending <- r
	started := make(chan bool)
	go func() {
		started <- true
		<-r.reply
	}()
	<-started
}

// The process's daemons: not leaks.
func TestProcessDaemons(t *testing.T) {
	Date()
	startTicker()
}

// A daemon per object never stopped: a leak.
func TestObjectDaemon(t *testing.T) {
	(&Client{}).Start()
}
