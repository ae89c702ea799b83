package pool

import "testing"

func run(t *testing.T, workers, tasks int, unlocked bool) {
	p := New(workers, unlocked)
	want := 0
	for i := 1; i <= tasks; i++ {
		p.Submit(i)
		want += 2 * i
	}
	if got := p.Wait(); got != want {
		t.Errorf("total = %d, want %d", got, want)
	}
}

// period:want none
func TestPool1000(t *testing.T) { run(t, 1000, 10000, false) }

// A worker adds without the lock: a data race on the total (an update is
// lost when another worker's addition falls between its read and write).
// period:want race
func TestPoolBuggy1000(t *testing.T) { run(t, 1000, 10000, true) }
