package bigwork

import (
	"sync"
	"testing"
)

const perWorker = 100000

func fill(m *Map, workers int, after func()) {
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perWorker; i++ {
				m.Put(w*perWorker+i, i)
			}
			after()
		}()
	}
	wg.Wait()
}

// TestManyOperations passes: a million key points and more, all progress.
func TestManyOperations(t *testing.T) {
	m := New()
	fill(m, 4, func() {})
	if n := m.Len(); n != 4*perWorker {
		t.Errorf("Len = %d, want %d", n, 4*perWorker)
	}
}

// TestManyOperationsLostUpdate has a real bug beside the work: two
// goroutines increment a counter without a lock while the map fills.
func TestManyOperationsLostUpdate(t *testing.T) {
	m := New()
	hits := 0
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := hits
			hits = n + 1
		}()
	}
	fill(m, 2, func() {})
	wg.Wait()
	if hits != 2 {
		t.Errorf("hits = %d, want 2", hits)
	}
}
