package phase01

import (
	"sync"
	"testing"
)

// Bug (every schedule): whichever goroutine locks x second waits forever.
// period:want deadlock
func TestPhase01(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Thread1() }()
	go func() { defer wg.Done(); Thread1() }()
	wg.Wait()
}
