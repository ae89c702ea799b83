package racystats

import "testing"

// Bug: unsynchronised read of s.Served while the handler writes it; no assertion
// can observe it, only a race detector (any interleaving where the read precedes done).
// period:want race
func TestSnapshot(t *testing.T) {
	s := &Stats{}
	done := make(chan struct{})
	go Serve(s, 2, done)
	t.Logf("progress: %d", Snapshot(s))
	<-done
	if s.Served != 2 {
		t.Fatalf("served %d, want 2", s.Served)
	}
}

// period:want none
func TestSnapshotFixed(t *testing.T) {
	s := &Stats{}
	done := make(chan struct{})
	go Serve(s, 2, done)
	<-done
	t.Logf("progress: %d", Snapshot(s))
	if s.Served != 2 {
		t.Fatalf("served %d, want 2", s.Served)
	}
}
