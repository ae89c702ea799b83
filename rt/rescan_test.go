package rt

import (
	"context"
	"testing"
)

// TestFullPassSkipsEndedGoroutines: a context canceled at every iteration
// of a loop that starts a goroutine asks for a full pass each time
// (rescanAsync); the pass looks at the goroutines still there, not at every
// one the run has had (gocloud's pubsub receive loop: 70 % of its time went
// to passes over thousands of ended goroutines).
func TestFullPassSkipsEndedGoroutines(t *testing.T) {
	const n = 2000
	runControlled(&stay{}, func() {
		for i := 0; i < n; i++ {
			_, cancel := WithCancel(context.Background())
			done := make(chan bool)
			Go("worker", func() { Send("done", done, true) })
			Recv("join", done)
			cancel()
		}
	})
	if len(eng.gs) < n {
		t.Fatalf("the run had %d goroutines, want at least %d", len(eng.gs), n)
	}
	if l := len(eng.rs.live); l > 10 {
		t.Errorf("a full pass still looks at %d goroutines of %d, most of them ended", l, len(eng.gs))
	}
}
