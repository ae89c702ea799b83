package reflectsel

import (
	"reflect"
	"testing"
)

// TestMerge is correct: every value arrives once, the output is closed.
func TestMerge(t *testing.T) {
	a, b, out := make(chan int), make(chan int), make(chan int)
	Merge(out, a, b)
	go func() {
		for i := 0; i < 3; i++ {
			a <- i
		}
		close(a)
	}()
	go func() {
		for i := 0; i < 3; i++ {
			b <- i
		}
		close(b)
	}()
	if n := Drain(out); n != 6 {
		t.Fatalf("merged %d values, want 6", n)
	}
}

// TestTryOps is correct: TrySend and TryRecv never block.
func TestTryOps(t *testing.T) {
	ch := make(chan int, 1)
	if !Offer(ch, 1) || Offer(ch, 2) {
		t.Fatal("a buffered channel with room takes one value")
	}
	if v, ok := Poll(ch); !ok || v != 1 {
		t.Fatalf("Poll = %d, %v", v, ok)
	}
	if _, ok := Poll(ch); ok {
		t.Fatal("empty channel")
	}
	done := make(chan int)
	go func() { done <- 1 }()
	for {
		if _, ok := Poll(done); ok {
			return
		}
	}
}

// TestOrderAssumed assumes the value of a comes first: a select among two
// ready channels may take either, so it fails in some schedules.
func TestOrderAssumed(t *testing.T) {
	a, b := make(chan int, 1), make(chan int, 1)
	a <- 1
	b <- 2
	cases := []reflect.SelectCase{
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(a)},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(b)},
	}
	if _, v, _ := reflect.Select(cases); v.Int() != 1 {
		t.Fatalf("got %d first", v.Int())
	}
}

// TestStuck waits on a reflect.Select that nothing will make ready: a leak
// of its goroutine, seen as such (not a wait outside control).
func TestStuck(t *testing.T) {
	never := make(chan int)
	go func() {
		reflect.Select([]reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(never)}})
	}()
}
