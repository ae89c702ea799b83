package sync02

import (
	"sync"
	"testing"
)

// Bug (every schedule): the consumer's n items are the two present at the start; the
// producer's second item never finds an empty slot.
// period:want deadlock
func TestSync02(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Producer() }()
	go func() { defer wg.Done(); Consumer() }()
	wg.Wait()
}
