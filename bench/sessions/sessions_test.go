package sessions

import "testing"

func run(t *testing.T, buggy bool) {
	s := NewServer()
	s.Start(12, buggy)
	// the idle reaper drops session 7 as soon as it shows up
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			s.mu.Lock()
			_, ok := s.sessions[7]
			s.mu.Unlock()
			if ok {
				s.Reap(7)
				return
			}
			runtimeYield()
		}
	}()
	s.Wait()
	<-done
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.sessions) != 11 {
		t.Errorf("%d sessions left, want 11", len(s.sessions))
	}
}

// Bug: a heartbeat checks its session under the lock and writes to the
// connection outside it; the reaper clears the connection in between.
// period:want panic
func TestSessionsBuggy(t *testing.T) { run(t, true) }

// period:want none
func TestSessionsFixed(t *testing.T) { run(t, false) }
