package counter

import (
	"sync"
	"testing"
)

func TestIncrement(t *testing.T) {
	mark("counter.TestIncrement")
	var c Counter
	c.Inc()
	if c.Value() != 1 {
		t.Fatalf("got %d", c.Value())
	}
}

func TestConcurrent(t *testing.T) {
	mark("counter.TestConcurrent")
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	if c.Value() != 3 {
		t.Fatalf("got %d", c.Value())
	}
}

// Not tests: a method and a benchmark.
func (c *Counter) TestMethod(t *testing.T) { t.Fatal("not a test") }

func BenchmarkInc(b *testing.B) {}
