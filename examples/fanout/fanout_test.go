package fanout

import (
	"errors"
	"sync"
	"testing"
)

// Correct: Add before go, error recorded once, results guarded by a mutex.
// period:want none
func TestGroup(t *testing.T) {
	var g Group
	var mu sync.Mutex
	results := map[int]int{}
	for i := 1; i <= 3; i++ {
		i := i
		g.Go(func() error {
			mu.Lock()
			results[i] = i * 10
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if len(results) != 3 || results[2] != 20 {
		t.Fatalf("results = %v", results)
	}
}

// Correct: whichever error comes first is returned, and it is one of the two.
// period:want none
func TestGroupError(t *testing.T) {
	errA, errB := errors.New("a"), errors.New("b")
	var g Group
	g.Go(func() error { return errA })
	g.Go(func() error { return errB })
	if err := g.Wait(); err != errA && err != errB {
		t.Fatalf("err = %v", err)
	}
}
