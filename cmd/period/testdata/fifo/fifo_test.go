package fifo

import (
	"testing"
	"testing/synctest"
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
