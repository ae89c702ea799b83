package lazy01

import (
	"sync"
	"testing"
)

// Bug: order violation; fails when thread3 runs after thread1 and thread2.
// period:want fail
func TestLazy01(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); Thread1() }()
	go func() { defer wg.Done(); Thread2() }()
	go func() { defer wg.Done(); Thread3(func(s string) { t.Error(s) }) }()
	wg.Wait()
}
