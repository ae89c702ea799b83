package periodonce

import (
	"sync"
	"testing"
)

// Bug: t1 passes "if done" and is preempted; t0 runs once() to the end, frees the lock
// and sets it to nil; t1 then locks nil (NPD). With t0 preempted between Free and
// lock = nil it is a use after free; with lost updates on waiters, a double free.
// period:want panic
func TestOnce(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Once() }()
	go func() { defer wg.Done(); Once() }()
	wg.Wait()
}
