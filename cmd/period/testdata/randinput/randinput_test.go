// Package randinput: a lost update that happens only when math/rand says
// so. Under Period the top-level functions of math/rand and math/rand/v2
// draw from a source of the schedule, so the same seed explores the same
// schedules and a replay draws the same numbers.
package randinput

import (
	cryptorand "crypto/rand"
	"fmt"
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

// A test that seeds math/rand's global source expects the numbers of that
// seed, whatever else draws randomness in between (a map range, as sprig's
// TestShuffle has in building its function map, and crypto/rand): under
// Period those draw from another stream, as natively. go.mod says go 1.22,
// so Seed takes effect (GODEBUG randseednop=0).
func TestSeededSequence(t *testing.T) {
	rand.Seed(1)
	n := 0
	for range map[int]bool{1: true, 2: true, 3: true} {
		n++
	}
	var b [8]byte
	if _, err := cryptorand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	_ = randv2.IntN(10)
	want := rand.New(rand.NewSource(1))
	for i := 0; i < 5; i++ {
		if got, w := rand.Intn(1000), want.Intn(1000); got != w {
			t.Fatalf("draw %d after rand.Seed(1): %d, want %d", i, got, w)
		}
	}
	if got, w := rand.Perm(5), want.Perm(5); fmt.Sprint(got) != fmt.Sprint(w) {
		t.Fatalf("rand.Perm after rand.Seed(1): %v, want %v", got, w)
	}
}
