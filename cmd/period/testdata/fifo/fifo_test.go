package fifo

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func TestBlockedSenderFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan int, 1)
		ch <- 0
		go func() { ch <- 1 }() // blocks: the buffer is full
		synctest.Wait()
		<-ch // 1 moves into the buffer now
		go func() { ch <- 2 }()
		synctest.Wait()
		if v := <-ch; v != 1 {
			t.Errorf("received %d, want 1: a later sender overtook the blocked one", v)
		}
		<-ch
	})
}

func TestBlockedReceiverFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan int, 1)
		got := make(chan int, 2)
		go func() { got <- 10 + <-ch }() // blocks: the buffer is empty
		synctest.Wait()
		ch <- 1 // handed to the blocked receiver
		go func() { got <- 20 + <-ch }()
		synctest.Wait()
		if v := <-got; v != 11 {
			t.Errorf("got %d, want 11: a later receiver overtook the blocked one", v)
		}
		ch <- 2
		<-got
	})
}

// TestSendersThatNeverWaitedRace has a bug: two senders that find room in
// the buffer are not queued, so either may send first.
func TestSendersThatNeverWaitedRace(t *testing.T) {
	ch := make(chan int, 2)
	done := make(chan bool, 2)
	go func() { ch <- 1; done <- true }()
	go func() { ch <- 2; done <- true }()
	<-done
	<-done
	if v := <-ch; v != 1 {
		t.Errorf("received %d first", v)
	}
}

// Senders blocked on an unbuffered channel are taken in the order they
// queued, by a plain receive and by a select with a default alike (a
// select with a default never waits in the queue, so a sender cannot pick
// it: eclipse/paho.golang's quota test).
func TestBlockedUnbufferedSendersInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan int)
		for i := 1; i <= 4; i++ {
			go func() { ch <- i }()
			synctest.Wait() // i is queued before i+1 starts
		}
		if v := <-ch; v != 1 {
			t.Errorf("received %d, want 1: a later sender overtook a queued one", v)
		}
		for want := 2; want <= 4; want++ {
			select {
			case v := <-ch:
				if v != want {
					t.Errorf("select received %d, want %d", v, want)
				}
			default:
				t.Errorf("select found no sender ready, want %d", want)
			}
		}
	})
}

// Receivers blocked on an unbuffered channel get values in the order they
// queued, from a plain send and from a select with a default.
func TestBlockedUnbufferedReceiversInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan int)
		got := make(chan [2]int, 3)
		for i := 1; i <= 3; i++ {
			go func() { got <- [2]int{i, <-ch} }()
			synctest.Wait()
		}
		ch <- 1
		select {
		case ch <- 2:
		default:
			t.Error("select found no receiver ready")
		}
		ch <- 3
		for range 3 {
			if r := <-got; r[0] != r[1] {
				t.Errorf("receiver %d got %d", r[0], r[1])
			}
		}
	})
}

// TestUnbufferedSendersRace has a bug: two senders started together may
// queue on the channel in either order.
func TestUnbufferedSendersRace(t *testing.T) {
	ch := make(chan int)
	go func() { ch <- 1 }()
	go func() { ch <- 2 }()
	if v := <-ch; v != 1 {
		t.Errorf("received %d first", v)
	}
	<-ch
}

// Goroutines blocked in Lock take the mutex in the order they queued: Go's
// Unlock wakes the first of them, and only goroutines arriving at Lock
// then compete with it. (A goroutine blocked on a mutex is not durably
// blocked for synctest: the test sleeps instead.)
func TestBlockedLockersInOrder(t *testing.T) {
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	mu.Lock()
	for i := 1; i <= 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
		}()
		time.Sleep(10 * time.Millisecond) // i is queued before i+1 starts
	}
	mu.Unlock()
	wg.Wait()
	if !slices.Equal(order, []int{1, 2, 3, 4}) {
		t.Errorf("took the lock in the order %v, want 1 2 3 4", order)
	}
}

// TestLockersThatNeverWaitedRace has a bug: two goroutines that reach Lock
// while it is free may take it in either order.
func TestLockersThatNeverWaitedRace(t *testing.T) {
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if order[0] != 1 {
		t.Errorf("goroutine %d locked first", order[0])
	}
}
