package wronglock

import (
	"sync"
	"testing"
)

// Bug: a FuncB increment lands between FuncA's read and its check.
// period:want fail
func TestWronglock(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(1 + BThreads)
	go func() { defer wg.Done(); FuncA(func(s string) { t.Error(s) }) }()
	for i := 0; i < BThreads; i++ {
		go func() { defer wg.Done(); FuncB() }()
	}
	wg.Wait()
}
