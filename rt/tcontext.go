//go:build go1.24

package rt

import (
	"context"
	"strings"
	"testing"
)

// TContext is t.Context(), also through a testing.TB. Under control it is a
// virtual context that the engine cancels just before the test's cleanup
// functions run (TCleanup), as package testing does: the real one is only
// canceled once the run is over, so a goroutine (or a cleanup) waiting for
// it would be blocked forever.
func TContext(site string, tb testing.TB) context.Context {
	e := eng
	_, md := e.enter()
	if md != modeControl {
		return tb.Context()
	}
	owner := e.testOwner(tb)
	if owner == nil {
		e.mu.Unlock()
		return tb.Context()
	}
	if owner.tctx == nil {
		owner.tctx = e.newCancelCtx(context.Background())
	}
	c := owner.tctx
	e.mu.Unlock()
	return c
}

// driverPrefix starts the name of every test run under Period's driver
// (instrument.DriverTest, then the test, then the schedule).
const driverPrefix = "TestPeriodDriver/"

// TNameAny is x.Name() through an interface of the program's: the name
// go test would give if x is a test, else x's own.
func TNameAny(x interface{ Name() string }) string {
	if _, ok := x.(testing.TB); ok {
		return TName(x)
	}
	return x.Name()
}

// TName is t.Name() as go test would give it: "TestX/sub", not
// "TestPeriodDriver/TestX/s3/sub". Tests re-execute os.Args[0] with
// -test.run=t.Name() (the subprocess idiom), and the user's TestX is in the
// binary as a top-level test, so the child runs it natively.
func TName(t interface{ Name() string }) string {
	name := t.Name()
	rest, ok := strings.CutPrefix(name, driverPrefix)
	if !ok {
		return name
	}
	test, after, _ := strings.Cut(rest, "/")
	test, _, _ = strings.Cut(test, "#") // "Test#01": the external package's Test (instrument.externalNames)
	if sched, sub, _ := strings.Cut(after, "/"); len(sched) > 1 && sched[0] == 's' && strings.Trim(sched[1:], "0123456789") == "" {
		if sub != "" {
			return test + "/" + sub
		}
		return test
	}
	return rest
}
