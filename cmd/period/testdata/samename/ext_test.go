package samename_test

import (
	"sync"
	"testing"

	"example.com/samename"
)

// The external package's Test: a lost update.
func Test(t *testing.T) {
	if t.Name() != "Test" {
		t.Errorf("t.Name() = %q, want Test", t.Name())
	}
	var c samename.Counter
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.AddRacy()
		}()
	}
	wg.Wait()
	if c.N() != 2 {
		t.Fatalf("n = %d", c.N())
	}
}
