// Package timerchan checks Go 1.23's timer channels, which the runtime
// makes synchronous: len and cap report 0, and no stale value is received
// after Reset or Stop.
package timerchan

import (
	"testing"
	"time"
)

func TestLenAndCapAreZero(t *testing.T) {
	tm := time.NewTimer(time.Millisecond)
	tk := time.NewTicker(time.Millisecond)
	defer tk.Stop()
	if cap(tm.C) != 0 || len(tm.C) != 0 || cap(tk.C) != 0 {
		t.Fatalf("cap %d len %d, ticker cap %d", cap(tm.C), len(tm.C), cap(tk.C))
	}
	time.Sleep(5 * time.Millisecond)
	if len(tm.C) != 0 || len(tk.C) != 0 {
		t.Fatalf("len %d after expiry, ticker %d", len(tm.C), len(tk.C))
	}
	// The old drain idiom drains nothing: the value is still received.
	if len(tm.C) > 0 {
		<-tm.C
	}
	<-tm.C
}

func TestNoStaleValueAfterReset(t *testing.T) {
	tm := time.NewTimer(time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	tm.Reset(time.Hour)
	select {
	case <-tm.C:
		t.Fatal("stale value after Reset")
	default:
	}
}
