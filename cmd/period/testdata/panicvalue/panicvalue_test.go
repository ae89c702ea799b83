package panicvalue

import (
	"os"
	"sync"
	"testing"
)

// The test goroutine panics, from a deferred call, with an error whose
// formatting runs instrumented code: the report names it (the test process
// used to wait for itself for ever: watermill's Router.Close timeout).
func TestDeferredPanicWithError(t *testing.T) {
	defer func() {
		panic(&Err{Op: "close", Code: 7})
	}()
}

// The same from a goroutine the test started.
func TestGoroutinePanicWithError(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		panic(&Err{Op: "flush", Code: 9})
	}()
	wg.Wait()
}

// os.Exit kept as a value to be called later (kingpin's terminate field):
// the call is Period's, as a direct call is, and reported with its schedule.
func TestExitThroughAValue(t *testing.T) {
	a := app{terminate: os.Exit}
	done := make(chan bool)
	go func() {
		defer close(done)
		a.terminate(3)
	}()
	<-done
}

type app struct{ terminate func(int) }
