package tokenring

import (
	"sync"
	"testing"
)

// Bug: any order of T1..T3 other than the ring order leaves x1, x2, x3 different when T4
// runs last.
// period:want fail
func TestTokenRing(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); T1() }()
	go func() { defer wg.Done(); T2() }()
	go func() { defer wg.Done(); T3() }()
	go func() { defer wg.Done(); T4(func(s string) { t.Error(s) }) }()
	wg.Wait()
}
