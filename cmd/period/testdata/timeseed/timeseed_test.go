// Package timeseed draws random numbers from a generator seeded with the
// clock, as jitter in retry libraries does (lestrrat-go/backoff): the test
// fails for one seed in eight, under go test as under Period.
package timeseed

import (
	"math/rand"
	"testing"
	"time"
)

func TestJitterWithinBounds(t *testing.T) {
	drawn := make(chan int64)
	go func() {
		r := rand.New(rand.NewSource(time.Now().UnixNano()))
		drawn <- r.Int63n(8)
	}()
	if v := <-drawn; v == 0 {
		t.Fatalf("jitter drew %d, out of bounds", v)
	}
}
