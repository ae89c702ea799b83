package deadlockcause

import (
	"sync"
	"testing"
)

// period:want deadlock
func TestRefreshSubscribe(t *testing.T) {
	c := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); c.Refresh(1) }()
	go func() { defer wg.Done(); c.Subscribe() }()
	wg.Wait()
}
