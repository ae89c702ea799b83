//go:build go1.21

package rt

import "testing"

func TestWaitingState(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"goroutine 7 [select]:", "goroutine 7 [chan receive]:"},
		{"goroutine 7 [select, 2 minutes]:", "goroutine 7 [chan receive, 2 minutes]:"},
		{"goroutine 7 [chan receive]:", "goroutine 7 [chan receive]:"},
		{"goroutine 7", "goroutine 7"},
	} {
		if got := waitingState(c.in, "chan receive"); got != c.want {
			t.Errorf("waitingState(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
