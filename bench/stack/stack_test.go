package stack

import (
	"sync"
	"testing"
)

// Bug: after one push and flag=true, the popper runs two iterations in a row: underflow.
// period:want fail
func TestStack(t *testing.T) {
	Reset()
	fail := func(s string) { t.Error(s) }
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Pusher(fail) }()
	go func() { defer wg.Done(); Popper(fail) }()
	wg.Wait()
}
