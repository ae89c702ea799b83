package unlockunlocked

import "testing"

func run(t *testing.T, fixed bool) {
	c := &Counter{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if fixed {
			c.IncFixed()
		} else {
			c.Inc()
		}
	}()
	c.Share()
	<-done
	if c.Value() != 1 {
		t.Fatalf("count %d, want 1", c.Value())
	}
}

// Bug: the flag is read twice. Interleaving: Inc reads shared=false (no Lock), main calls
// Share, Inc reads shared=true and unlocks the unlocked mutex.
// period:want panic
func TestInc(t *testing.T) { run(t, false) }

// period:want none
func TestIncFixed(t *testing.T) { run(t, true) }
