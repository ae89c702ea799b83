//go:build go1.21

package rt

import (
	"sync"
	"testing"
	"time"
)

// A goroutine outside control that waits for e.mu in this package (as
// outsideLock does when it locks a mutex shared with controlled goroutines)
// goes on once e.mu is released: settleOutside must count it as running,
// or all controlled goroutines waiting for it look deadlocked. One blocked
// on a channel does not count.
func TestOthersRunnableSeesWaitersForTheEngine(t *testing.T) {
	var mu sync.Mutex
	ch := make(chan struct{})
	lockerID, receiverID := make(chan int64), make(chan int64)
	mu.Lock()
	go func() { lockerID <- goid(); mu.Lock(); mu.Unlock() }()
	go func() { receiverID <- goid(); <-ch }()
	locker, receiver := <-lockerID, <-receiverID
	only := func(id int64) func(int64) bool { return func(o int64) bool { return o != id } }
	deadline := time.Now().Add(10 * time.Second)
	for othersRunnable(only(receiver)) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // until it has parked on ch
	}
	if othersRunnable(only(receiver)) {
		t.Errorf("a goroutine blocked on a channel counts as running")
	}
	time.Sleep(10 * time.Millisecond) // the locker parks on mu
	if !othersRunnable(only(locker)) {
		t.Errorf("a goroutine waiting for a lock in package rt does not count as running")
	}
	mu.Unlock()
	close(ch)
}
