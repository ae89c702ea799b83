package carter01

import (
	"sync"
	"testing"
)

// Bug: A takes l and releases m; B takes m and blocks on l while holding m; A then blocks
// on m to leave: deadlock.
// period:want deadlock
func TestCarter01(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); ClassA() }()
	go func() { defer wg.Done(); ClassB() }()
	go func() { defer wg.Done() }() // t3 and t4 do nothing, as in the original
	go func() { defer wg.Done() }()
	wg.Wait()
}
