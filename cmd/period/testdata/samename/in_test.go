package samename

import (
	"sync"
	"testing"
)

// The package's own Test: correct.
func Test(t *testing.T) {
	if t.Name() != "Test" {
		t.Errorf("t.Name() = %q, want Test", t.Name())
	}
	var c Counter
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Add()
		}()
	}
	wg.Wait()
	if c.N() != 2 {
		t.Fatalf("n = %d", c.N())
	}
}
