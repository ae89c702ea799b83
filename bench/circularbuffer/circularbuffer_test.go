package circularbuffer

import (
	"sync"
	"testing"
)

// Bug: the consumer runs an iteration with nothing to receive, then receives the
// producer's element i at loop index i+1.
// period:want fail
func TestCircularBuffer(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Producer() }()
	go func() { defer wg.Done(); Consumer(func(s string) { t.Error(s) }) }()
	wg.Wait()
}
