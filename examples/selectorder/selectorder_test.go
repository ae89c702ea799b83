package selectorder

import "testing"

func run(t *testing.T, collect func(<-chan int, <-chan struct{}) int) {
	data := make(chan int, 1)
	quit := make(chan struct{})
	res := make(chan int)
	go func() { res <- collect(data, quit) }()
	data <- 1
	data <- 2
	close(quit)
	if got := <-res; got != 3 {
		t.Fatalf("sum = %d, want 3", got)
	}
}

// Bug: select assumes the data case wins. Interleaving: 2 is still buffered in data when
// quit is closed; the collector's select picks quit and returns 1.
// period:want fail
func TestCollect(t *testing.T) { run(t, Collect) }

// period:want none
func TestCollectFixed(t *testing.T) { run(t, CollectFixed) }
