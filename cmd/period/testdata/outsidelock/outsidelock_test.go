package outsidelock

import (
	"sync"
	"testing"
)

// The registry's mutex is locked by controlled goroutines and by the
// goroutine init started, which Period does not control: both must exclude
// each other (without it, the map is written by both at once and the
// process dies of a concurrent map write that go test never shows).
func TestRegistryWithBackgroundWriter(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Post("x")
			Set("y", i)
			for range 20 {
				_ = Count("x")
			}
		}()
	}
	wg.Wait()
	for Count("x") < 4 {
		Set("z", 1)
	}
}

// A genuine lost update beside the background writer is still found.
func TestLostUpdateBesideBackgroundWriter(t *testing.T) {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Post("w")
			v := Count("n")
			Set("n", v+1)
		}()
	}
	wg.Wait()
	if v := Count("n"); v != 2 {
		t.Fatalf("lost update: %d", v)
	}
}
