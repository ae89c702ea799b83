package lateadd

import (
	"testing"
	"time"
)

// Bug: the goroutines that register the workers may not have run when the
// sleep ends; their WaitGroup.Add from zero then overlaps Stop's Wait (a
// misuse -race reports, and Stop returns before the work is done).
// period:want race
func TestLateAddBuggy(t *testing.T) {
	s := &Stopper{}
	for i := 0; i < 2; i++ {
		go s.RunWorker(s.Work)
	}
	time.Sleep(20 * time.Microsecond)
	s.Stop()
}

// period:want none
func TestLateAddFixed(t *testing.T) {
	s := &Stopper{}
	for i := 0; i < 2; i++ {
		s.RunWorker(s.Work)
	}
	time.Sleep(20 * time.Microsecond)
	s.Stop()
}
