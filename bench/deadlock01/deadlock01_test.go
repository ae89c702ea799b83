package deadlock01

import (
	"sync"
	"testing"
)

// Bug: AB-BA. Thread1 holds a, thread2 holds b, each waits for the other.
// period:want deadlock
func TestDeadlock01(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Thread1() }()
	go func() { defer wg.Done(); Thread2() }()
	wg.Wait()
}
