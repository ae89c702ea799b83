package twostage

import (
	"sync"
	"testing"
)

// Bug: atomicity violation; the reader runs after a writer's first critical section and
// before its second.
// period:want fail
func TestTwostage(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(Writers + 1)
	for i := 0; i < Writers; i++ {
		go func() { defer wg.Done(); FuncA() }()
	}
	go func() { defer wg.Done(); FuncB(func(s string) { t.Error(s) }) }()
	wg.Wait()
}
