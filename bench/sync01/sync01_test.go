package sync01

import (
	"sync"
	"testing"
)

// Bug (every schedule): num stays 1, so Thread1 waits on empty forever.
// period:want deadlock
func TestSync01(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Thread1() }()
	go func() { defer wg.Done(); Thread2() }()
	wg.Wait()
}
