package ring

import "testing"

// About a million steps (four key points per pass: receive, timer, stop,
// send) on 1,000 goroutines.
// period:want none
func TestRing1000(t *testing.T) {
	if got, want := Run(1000, 333), 1000*333; got != want {
		t.Errorf("passes = %d, want %d", got, want)
	}
}
