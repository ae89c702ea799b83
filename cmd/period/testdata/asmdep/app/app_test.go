// Package app calls a dependency with assembly (uninstrumented) that hands
// buffers of a pure Go dependency from goroutine to goroutine through its
// own channel: no race, as go test -race says.
package app

import (
	"sync"
	"testing"

	"example.com/asmlib"
)

func TestSharedScratch(t *testing.T) {
	p := asmlib.New()
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if n := p.Use(i + 1); n != 8*(i+1) {
				t.Errorf("sum %d", n)
			}
		}()
	}
	wg.Wait()
}
