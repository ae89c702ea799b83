// Package randinput: a lost update that happens only when math/rand says
// so. Under Period the top-level functions of math/rand and math/rand/v2
// draw from a source of the schedule, so the same seed explores the same
// schedules and a replay draws the same numbers.
package randinput

import (
	"math/rand"
	randv2 "math/rand/v2"
	"sync"
	"testing"
	"time"
)

var counter int

func TestCoinLostUpdate(t *testing.T) {
	counter = 0
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if rand.Intn(4) == 0 && randv2.IntN(2) == 0 {
				v := counter // unlocked: only on this path
				counter = v + 1
				return
			}
			mu.Lock()
			counter++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if counter != 2 {
		t.Errorf("counter = %d", counter)
	}
	_ = randv2.N[time.Duration](10 * time.Millisecond)
	_ = rand.New(rand.NewSource(1)).Intn(3) // a source of the test's own
}
