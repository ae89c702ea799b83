package suiterun

import (
	"sync"
	"testing"
)

// runner is how testify's suite runs each method as a subtest: through an
// interface that *testing.T satisfies, not through t.Run itself.
type runner interface {
	Run(name string, f func(t *testing.T)) bool
}

type namedTest struct {
	name string
	f    func(t *testing.T)
}

func runAll(tb testing.TB, tests []namedTest) {
	r, ok := tb.(runner)
	if !ok {
		tb.Fatal("not a runner")
	}
	for _, tc := range tests {
		r.Run(tc.name, tc.f)
	}
}

// count adds 1 from two goroutines, under the lock or not.
func count(t *testing.T, locked bool) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if locked {
				mu.Lock()
				defer mu.Unlock()
			}
			v := n
			if !locked {
				mu.Lock() // a key point between the read and the write
				mu.Unlock()
			}
			n = v + 1
		}()
	}
	wg.Wait()
	if n != 2 {
		t.Errorf("n = %d, want 2", n)
	}
}

// TestSuiteLocked is correct: its subtests must explore and pass.
func TestSuiteLocked(t *testing.T) {
	runAll(t, []namedTest{
		{"first", func(t *testing.T) { count(t, true) }},
		{"second", func(t *testing.T) { count(t, true) }},
	})
}

// TestSuiteLostUpdate loses an update in some schedules of its subtest.
func TestSuiteLostUpdate(t *testing.T) {
	runAll(t, []namedTest{
		{"unlocked", func(t *testing.T) { count(t, false) }},
	})
}
