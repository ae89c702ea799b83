package condlocker

import (
	"sync"
	"testing"
)

// A consumer waits on the queue's condition while producers put: no
// verdict (the process died of "unlock of unlocked mutex": the condition
// unlocked the real embedded mutex the model had locked).
func TestQueueIsItsCondsLocker(t *testing.T) {
	q := NewQueue()
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q.Put(i)
		}()
	}
	sum := 0
	for range 3 {
		sum += q.Take()
	}
	wg.Wait()
	if sum != 3 {
		t.Fatalf("sum %d", sum)
	}
}

// A Locker with Lock and Unlock of its own keeps them: Wait relocks
// through Counted.Lock, which counts.
func TestOwnLockMethodsRun(t *testing.T) {
	c := NewCounted()
	done := make(chan bool)
	go func() {
		c.Lock()
		for !c.ready {
			c.cond.Wait()
		}
		c.Unlock()
		done <- true
	}()
	c.Lock()
	c.ready = true
	c.Unlock()
	c.cond.Broadcast()
	<-done
	c.Lock()
	n := c.locks
	c.Unlock()
	if n < 3 {
		t.Fatalf("%d locks through Counted.Lock", n)
	}
}

// unlockOnce returns l's Unlock bound now, run at most once (miekg/dns's
// ListenAndServe unlocks its server's RWMutex so): the bound Unlock must
// release the lock the model took, not the real one ("fatal error: sync:
// Unlock of unlocked RWMutex" killed hashicorp/memberlist's test process).
func unlockOnce(l sync.Locker) func() {
	var once sync.Once
	return func() { once.Do(l.Unlock) }
}

func TestLockerUnlockAsValue(t *testing.T) {
	var mu sync.RWMutex
	n := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		unlock := unlockOnce(&mu)
		mu.Lock()
		defer unlock()
		n++
		unlock()
	}()
	mu.RLock()
	_ = n
	mu.RUnlock()
	<-done
}

// Locked through an interface, unlocked through the concrete type, the
// mutex two embeddings down (go-sqlmock's expectations): the process died
// of "unlock of unlocked mutex" (the interface call locked the real mutex).
func TestLockedThroughInterfaceDeepEmbedding(t *testing.T) {
	list := []expectation{&Begin{name: "a"}, &Begin{name: "b"}}
	got := make(chan *Begin, 2)
	for range 2 {
		go func() { got <- Take(list) }()
	}
	a, b := <-got, <-got
	if a == nil || b == nil || a == b {
		t.Fatalf("took %v and %v", a, b)
	}
	s := &Shared{Mutex: new(sync.Mutex)}
	var l sync.Locker = s
	done := make(chan bool)
	go func() {
		l.Lock()
		s.n++
		s.Unlock()
		done <- true
	}()
	s.Lock()
	s.n++
	l.Unlock()
	<-done
}
