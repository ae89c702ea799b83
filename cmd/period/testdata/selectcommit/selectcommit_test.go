package selectcommit

import (
	"context"
	"testing"
	"time"
)

// A select blocked on two channels is completed by the first that becomes
// ready: a value sent on a buffered channel goes to the waiting select,
// and a close right after it cannot take its place (lestrrat-go/backoff's
// Continue after the last retry). Natively the select below always waits
// before the sender wakes, so it always takes next.

func TestSendThenClose(t *testing.T) {
	next := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		time.Sleep(10 * time.Millisecond)
		next <- struct{}{}
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("done chosen, but next was ready first while the select waited")
	case <-next:
	}
}

// The same with the value sent by a select, as a loop that also watches a
// context sends it.
func TestSelectSendThenClose(t *testing.T) {
	next := make(chan struct{}, 1)
	done := make(chan struct{})
	stop := make(chan struct{})
	go func() {
		time.Sleep(10 * time.Millisecond)
		select {
		case <-stop:
			return
		case next <- struct{}{}:
		}
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("done chosen, but next was ready first while the select waited")
	case <-next:
	}
}

// Two receivers wait; the first in line gets the value, the second the
// close.
func TestFirstInLineGetsTheValue(t *testing.T) {
	next := make(chan int, 1)
	done := make(chan struct{})
	got := make(chan string, 2)
	for _, name := range []string{"first", "second"} {
		go func() {
			select {
			case <-done:
				got <- name + " done"
			case <-next:
				got <- name + " value"
			}
		}()
		time.Sleep(time.Millisecond) // "first" waits before "second"
	}
	time.Sleep(10 * time.Millisecond)
	next <- 1
	close(done)
	a, b := <-got, <-got
	if a != "first value" && b != "first value" {
		t.Fatalf("got %q and %q: the first receiver in line did not get the value", a, b)
	}
}

// A context's cancel closes its Done before its children's: a select
// blocked on both is completed by the parent's (riverqueue's notifier
// waits on its wait context and on a ping timeout derived from it; taking
// the ping's case on a cancel pings a mock that has no ping).
func TestParentDoneBeforeChildDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ping, pingCancel := context.WithTimeout(ctx, time.Hour)
	defer pingCancel()
	got := make(chan string)
	go func() {
		select {
		case <-ctx.Done():
			got <- "wait cancelled"
		case <-ping.Done():
			got <- "ping due"
		}
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if g := <-got; g != "wait cancelled" {
		t.Fatalf("%s: the child's Done was chosen, but the parent's closed first while the select waited", g)
	}
}
