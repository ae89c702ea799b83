// Correct spin, retry and polling loops: no verdict under any strategy,
// since Go never starves a runnable goroutine. TestLivelock is the
// counter-example: two goroutines that politely yield to each other forever.
package spin

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

type spinLock struct{ state atomic.Int32 }

func (l *spinLock) Lock() {
	for !l.state.CompareAndSwap(0, 1) {
		runtime.Gosched()
	}
}
func (l *spinLock) Unlock() { l.state.Store(0) }

func TestSpinLockGosched(t *testing.T) {
	var l spinLock
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 3; j++ {
				l.Lock()
				n++
				l.Unlock()
			}
		}()
	}
	wg.Wait()
	if n != 9 {
		t.Errorf("n = %d", n)
	}
}

func TestSpinNoGosched(t *testing.T) {
	var flag atomic.Bool
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !flag.Load() {
			}
		}()
	}
	flag.Store(true)
	wg.Wait()
}

func TestTryLockRetry(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !mu.TryLock() {
			}
			n++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n != 3 {
		t.Errorf("n = %d", n)
	}
}

func TestRLockPoll(t *testing.T) {
	var mu sync.RWMutex
	ready := false
	go func() {
		mu.Lock()
		ready = true
		mu.Unlock()
	}()
	for {
		mu.RLock()
		r := ready
		mu.RUnlock()
		if r {
			break
		}
	}
}

func TestSelectDefaultPoll(t *testing.T) {
	ch := make(chan int, 1)
	go func() { ch <- 1 }()
	for {
		select {
		case <-ch:
			return
		default:
		}
	}
}

func TestLivelock(t *testing.T) {
	var a, b atomic.Bool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for !b.Load() { // waits for the other, which waits for it
			runtime.Gosched()
		}
		a.Store(true)
	}()
	go func() {
		defer wg.Done()
		for !a.Load() {
			runtime.Gosched()
		}
		b.Store(true)
	}()
	wg.Wait()
}
