package linkclock

import (
	"sync"
	"testing"
	"time"
)

// Two goroutines take at once: one gets the token; after a sleep of the
// interval the bucket is full again, and the take's instant is the
// test's clock, not another.
func TestRefillAfterSleep(t *testing.T) {
	b := NewBucket(time.Second)
	var wg sync.WaitGroup
	got := make(chan bool, 2)
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got <- b.Take()
		}()
	}
	wg.Wait()
	if a, c := <-got, <-got; a == c {
		t.Fatalf("takes %v and %v: want exactly one", a, c)
	}
	time.Sleep(time.Second)
	before := time.Now()
	if !b.Take() {
		t.Fatal("the bucket was not refilled after its interval")
	}
	if d := b.LastTake().Sub(before); d < 0 || d > time.Second {
		t.Errorf("the take was %v from time.Now", d)
	}
}

func TestConstantIsReadOnly(t *testing.T) {
	if !ReadOnly("a constant") {
		t.Fatal("a string constant is not in read-only data")
	}
}
