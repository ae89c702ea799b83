//go:build go1.25

package races

import (
	"sync"
	"testing"
)

// WaitGroup.Go (Go 1.25): the function returns before Wait does.

// period:want race
func TestWaitGroupGo(t *testing.T) {
	x := 0
	var wg sync.WaitGroup
	wg.Go(func() { x = 1 })
	sink = x
	wg.Wait()
}

// period:want none
func TestWaitGroupGoFixed(t *testing.T) {
	x := 0
	var wg sync.WaitGroup
	wg.Go(func() { x = 1 })
	wg.Wait()
	sink = x
}
