package queue

import (
	"sync"
	"testing"
)

// Bug: the consumer's index i runs ahead of the producer's when some consumer iterations
// find dequeueFlag false, so it compares against the wrong stored element.
// period:want fail
func TestQueue(t *testing.T) {
	if !Reset() {
		t.Fatal("fresh queue not empty")
	}
	fail := func(s string) { t.Error(s) }
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Producer(fail) }()
	go func() { defer wg.Done(); Consumer(fail) }()
	wg.Wait()
}
