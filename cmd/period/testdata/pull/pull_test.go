package pull

import (
	"iter"
	"sync"
	"testing"
)

// The pulled iterator receives from a controlled goroutine: under Period its
// key points must be controlled too, or its receive waits for a sender the
// model never lets run.
func TestPullFedByGoroutine(t *testing.T) {
	c := make(chan int)
	go func() {
		for i := range 5 {
			c <- i
		}
		close(c)
	}()
	if s := Sum(FromChan(c)); s != 10 {
		t.Fatal(s)
	}
}

func TestPull2StartsGoroutines(t *testing.T) {
	next, stop := iter.Pull2(Squares(4))
	defer stop()
	total := 0
	for {
		i, v, ok := next()
		if !ok {
			break
		}
		if v != i*i {
			t.Fatal(i, v)
		}
		total += v
	}
	if total != 14 {
		t.Fatal(total)
	}
}

func TestPullStoppedEarly(t *testing.T) {
	c := make(chan int, 3)
	done := make(chan struct{})
	go func() {
		defer close(done)
		c <- 1
		c <- 2
	}()
	next, stop := iter.Pull(FromChan(c))
	if v, ok := next(); !ok || v != 1 {
		t.Fatal(v, ok)
	}
	stop()
	<-done
}

// A genuine lost update between the pulled iterator and a goroutine: the
// iterator reads n, yields, then writes it back.
func TestPullLostUpdate(t *testing.T) {
	var mu sync.Mutex
	n := 0
	seq := func(yield func(int) bool) {
		mu.Lock()
		v := n
		mu.Unlock()
		if !yield(v) {
			return
		}
		mu.Lock()
		n = v + 1
		mu.Unlock()
	}
	done := make(chan bool)
	go func() {
		mu.Lock()
		n++
		mu.Unlock()
		done <- true
	}()
	next, stop := iter.Pull(seq)
	next()
	next()
	stop()
	<-done
	if n != 2 {
		t.Fatalf("lost update: %d", n)
	}
}
