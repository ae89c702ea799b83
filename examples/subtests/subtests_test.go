package subtests

import (
	"sync"
	"testing"
)

// newService starts a service that the test's cleanup stops: the service's
// goroutine is not a leak, and the cleanup runs under control.
func newService(tb testing.TB) *Service {
	tb.Helper()
	s := Start()
	tb.Cleanup(s.Stop)
	return s
}

// Submit returns when the service has taken the request, before it records
// it: reading Seen right away can miss the last one.
// period:want fail
func TestSubmit(t *testing.T) {
	s := newService(t)
	s.Submit(" a ")
	s.Submit("b")
	if got := s.Seen(); len(got) != 2 {
		t.Fatalf("seen %v", got)
	}
}

// period:want none
func TestSubmitFixed(t *testing.T) {
	s := Start()
	s.Submit(" a ")
	s.Submit("b")
	t.Cleanup(func() {
		s.Stop() // the service has recorded everything once it stopped
		if got := s.Seen(); len(got) != 2 {
			t.Errorf("seen %v", got)
		}
	})
}

// A skipped test still runs its cleanups.
// period:want none
func TestSkippedStopsService(t *testing.T) {
	newService(t)
	t.Skip("skipped after start")
}

// Parallel subtests run together once the parent's function has returned;
// they share the map.
// period:want race
func TestParallelShared(t *testing.T) {
	seen := map[string]int{}
	for _, n := range []string{"a", "b"} {
		n := n
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			seen[n]++
		})
	}
}

// period:want none
func TestParallelSharedFixed(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	t.Run("group", func(t *testing.T) {
		for _, n := range []string{"a", "b", "c"} {
			n := n
			t.Run(n, func(t *testing.T) {
				t.Parallel()
				mu.Lock()
				seen[n]++
				mu.Unlock()
			})
		}
	})
	if len(seen) != 3 { // the group's t.Run waited for its parallel subtests
		t.Fatalf("seen %v", seen)
	}
}

// Before Go 1.22 (this module says go 1.21) every parallel subtest sees the
// loop variable's last value: the first case is never tested.
// period:want fail
func TestTableParallel(t *testing.T) {
	cases := []struct {
		name     string
		in, want int
	}{{"one", 1, 2}, {"two", 2, 4}}
	var mu sync.Mutex
	tested := map[string]bool{}
	t.Cleanup(func() {
		if len(tested) != len(cases) {
			t.Errorf("tested %v", tested)
		}
	})
	for _, tc := range cases {
		check := func(t *testing.T) {
			t.Parallel()
			mu.Lock()
			tested[tc.name] = true
			mu.Unlock()
			if Double(tc.in) != tc.want {
				t.Errorf("Double(%d)", tc.in)
			}
		}
		t.Run(tc.name, check)
	}
}

// period:want none
func TestTableParallelFixed(t *testing.T) {
	cases := []struct {
		name     string
		in, want int
	}{{"one", 1, 2}, {"two", 2, 4}}
	var mu sync.Mutex
	tested := map[string]bool{}
	t.Cleanup(func() {
		if len(tested) != len(cases) {
			t.Errorf("tested %v", tested)
		}
	})
	for _, tc := range cases {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mu.Lock()
			tested[tc.name] = true
			mu.Unlock()
			if Double(tc.in) != tc.want {
				t.Errorf("Double(%d)", tc.in)
			}
		})
	}
}
