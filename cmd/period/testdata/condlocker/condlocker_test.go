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

// A struct embedding the sync.Locker interface (mellium.im/xmpp's session
// streams: struct{ sync.Locker; ... } set to a *sync.Mutex): s.in.Lock()
// is a call through the interface, and the Locker taken from the field
// unlocks what it locked (53 tests of xmpp died of "unlock of unlocked
// mutex": the promoted Lock ran on the real mutex, the Unlock in the model).
func TestEmbeddedLockerInterface(t *testing.T) {
	s := &stream{}
	s.in.Locker = &sync.Mutex{}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.in.Lock()
			s.in.n++
			release := s.in.Locker
			release.Unlock()
			s.in.Lock()
			defer s.in.Unlock()
			s.in.n++
		}()
	}
	wg.Wait()
	var once sync.Once
	s.in.Lock()
	once.Do(s.in.Unlock) // a method value through the embedded interface
	if s.in.n != 4 {
		t.Fatalf("n = %d", s.in.n)
	}
}

// A struct value embedding *sync.RWMutex is a sync.Locker itself: its
// Unlock through the interface releases the lock the model took.
func TestStructValueEmbeddingRWMutexPointer(t *testing.T) {
	v := rwHolder{&sync.RWMutex{}}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v.Lock()
			var l sync.Locker = v
			l.Unlock()
			v.RLock()
			v.RLocker().Unlock()
		}()
	}
	wg.Wait()
}

type stream struct {
	in half
}

type half struct {
	sync.Locker
	n int
}

type rwHolder struct {
	*sync.RWMutex
}
