package reorder4

import (
	"sync"
	"testing"
)

// Bug: the checker reads a before any setter runs and b after one did (or a after a set
// and b before it).
// period:want fail
func TestReorder4(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(Setters + 1)
	for i := 0; i < Setters; i++ {
		go func() { defer wg.Done(); Set() }()
	}
	go func() { defer wg.Done(); Check(func(s string) { t.Error(s) }) }()
	wg.Wait()
}
