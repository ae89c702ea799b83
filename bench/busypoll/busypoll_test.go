package busypoll

import (
	"testing"
	"time"
)

func run(t *testing.T, step func(*Progress)) {
	p := &Progress{}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		Run(stop, func() { step(p) })
		close(done)
	}()
	// The sleep ends although the worker never blocks.
	time.Sleep(500 * time.Microsecond)
	s, f := p.Sample()
	close(stop)
	<-done
	if s != f {
		t.Fatalf("sampled %d steps started, %d finished", s, f)
	}
}

// Bug: the sample falls between the two halves of a step.
// period:want fail
func TestBusyPollBuggy(t *testing.T) { run(t, (*Progress).Step) }

// period:want none
func TestBusyPollFixed(t *testing.T) { run(t, (*Progress).StepFixed) }
