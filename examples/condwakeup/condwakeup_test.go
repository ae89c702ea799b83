package condwakeup

import "testing"

type gate interface {
	Wait()
	Open()
}

func run(g gate) {
	started := make(chan struct{})
	done := make(chan struct{})
	go func() {
		started <- struct{}{}
		g.Wait()
		close(done)
	}()
	<-started // the waiter is running, but not necessarily waiting yet
	g.Open()
	<-done
}

// Bug: Signal without a predicate. Interleaving: after the started hand-off the main
// goroutine runs Open before the waiter locks the mutex; the signal is lost and both block.
// period:want deadlock
func TestGate(t *testing.T) { run(NewGate()) }

// period:want none
func TestGateFixed(t *testing.T) { run(NewFixedGate()) }
