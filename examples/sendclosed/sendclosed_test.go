package sendclosed

import "testing"

func run(t *testing.T, fixed bool) {
	b := New(1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if fixed {
			b.PublishFixed(7)
		} else {
			b.Publish(7)
		}
	}()
	b.Close()
	<-done
	for v := range b.C {
		if v != 7 {
			t.Fatalf("got event %d", v)
		}
	}
}

// Bug: check under the lock, send outside it. Interleaving: publisher reads closed=false
// and unlocks, main closes the bus, publisher sends: panic "send on closed channel".
// period:want panic
func TestPublish(t *testing.T) { run(t, false) }

// period:want none
func TestPublishFixed(t *testing.T) { run(t, true) }
