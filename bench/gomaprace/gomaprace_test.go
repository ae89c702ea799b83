package gomaprace

import (
	"sync"
	"testing"
)

// Bug: unsynchronised map writes from two goroutines (data race in every schedule).
// period:want race
func TestIndex(t *testing.T) {
	x := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); x.Add("a", 1) }()
	go func() { defer wg.Done(); x.Add("b", 2) }()
	wg.Wait()
	if x.Len() != 2 {
		t.Fatalf("len = %d, want 2", x.Len())
	}
}
