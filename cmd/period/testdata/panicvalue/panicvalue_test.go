package panicvalue

import (
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
