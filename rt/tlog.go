//go:build go1.21

package rt

import (
	"fmt"
	"strings"
	"testing"
)

// Under go test, a goroutine that logs or fails through a test's T after the
// test (and every test above it) has completed panics: "Log in goroutine
// after TestX has completed: msg" (package testing's log and Fail). Under
// Period the test's T is a schedule's subtest that stays running until the
// run is over, so these hooks say it instead: once the test function has
// returned, a controlled goroutine's t.Log, t.Error, t.Fatal, t.Skip (and
// their f forms) or t.Fail panics with go test's message, as it does when the
// test runs alone. Before that, or outside control, they are the real calls.

// afterTest is " after TestX returned" once the test function has returned:
// go test runs no test body any more, a failure is in work left behind.
// e.mu is held.
func (e *engine) afterTest() string {
	if e.rootDone && len(e.gs) > 0 && e.gs[0].t != nil {
		return " after " + TName(e.gs[0].t) + " returned"
	}
	return ""
}

// lateT tells whether tb is the T of the run's test or of one of its
// subtests and the test function has returned. e.mu is held.
func (e *engine) lateT(tb testing.TB) (string, bool) {
	if !e.rootDone || e.finished {
		return "", false
	}
	for _, g := range e.gs {
		if g.t != nil && testing.TB(g.t) == tb {
			return TName(g.t), true
		}
	}
	return "", false
}

// lateLog panics as testing's log does once its test has completed, or
// returns with nothing done.
// msg formats the message only then: its operands' String methods may
// reach key points.
func lateLog(tb testing.TB, msg func() string) {
	e := eng
	_, md := e.enter()
	if md != modeControl {
		return
	}
	name, late := e.lateT(tb)
	e.mu.Unlock()
	if late {
		// testing.(*common).log: trailing newline dropped, later lines indented.
		s := strings.ReplaceAll(strings.TrimSuffix(msg(), "\n"), "\n", "\n    ") + "\n"
		panic("Log in goroutine after " + name + " has completed: " + s)
	}
}

// noteFailure keeps the first line of the run's first t.Error or t.Fatal
// message (e.failFirst): package testing prints it as it prints t.Log's
// lines, and the period command finds the fail's location by it.
func noteFailure(msg func() string) {
	e := eng
	if !e.active.Load() {
		return
	}
	e.mu.Lock()
	need := e.failFirst == "" && e.callerG() != nil
	e.mu.Unlock()
	if !need {
		return
	}
	// Formatted without e.mu: a String method may be instrumented code.
	first, _, _ := strings.Cut(strings.TrimSpace(msg()), "\n")
	if first == "" {
		first = "\n" // an empty first line (testify's): matches no printed line
	}
	e.mu.Lock()
	if e.failFirst == "" {
		e.failFirst = first
	}
	e.mu.Unlock()
}

// lateFail panics as testing's Fail does once its test has completed.
func lateFail(tb testing.TB) {
	e := eng
	_, md := e.enter()
	if md != modeControl {
		return
	}
	name, late := e.lateT(tb)
	e.mu.Unlock()
	if late {
		panic("Fail in goroutine after " + name + " has completed")
	}
}

// TLog is t.Log(args...).
func TLog(tb testing.TB, args ...any) {
	tb.Helper()
	lateLog(tb, func() string { return fmt.Sprintln(args...) })
	tb.Log(args...)
}

// TLogf is t.Logf(format, args...).
func TLogf(tb testing.TB, format string, args ...any) {
	tb.Helper()
	lateLog(tb, func() string { return fmt.Sprintf(format, args...) })
	tb.Logf(format, args...)
}

// TError is t.Error(args...).
func TError(tb testing.TB, args ...any) {
	tb.Helper()
	lateLog(tb, func() string { return fmt.Sprintln(args...) })
	noteFailure(func() string { return fmt.Sprintln(args...) })
	tb.Error(args...)
}

// TErrorf is t.Errorf(format, args...).
func TErrorf(tb testing.TB, format string, args ...any) {
	tb.Helper()
	lateLog(tb, func() string { return fmt.Sprintf(format, args...) })
	noteFailure(func() string { return fmt.Sprintf(format, args...) })
	tb.Errorf(format, args...)
}

// TFatal is t.Fatal(args...).
func TFatal(tb testing.TB, args ...any) {
	tb.Helper()
	lateLog(tb, func() string { return fmt.Sprintln(args...) })
	noteFailure(func() string { return fmt.Sprintln(args...) })
	tb.Fatal(args...)
}

// TFatalf is t.Fatalf(format, args...).
func TFatalf(tb testing.TB, format string, args ...any) {
	tb.Helper()
	lateLog(tb, func() string { return fmt.Sprintf(format, args...) })
	noteFailure(func() string { return fmt.Sprintf(format, args...) })
	tb.Fatalf(format, args...)
}

// TSkip is t.Skip(args...).
func TSkip(tb testing.TB, args ...any) {
	tb.Helper()
	lateLog(tb, func() string { return fmt.Sprintln(args...) })
	tb.Skip(args...)
}

// TSkipf is t.Skipf(format, args...).
func TSkipf(tb testing.TB, format string, args ...any) {
	tb.Helper()
	lateLog(tb, func() string { return fmt.Sprintf(format, args...) })
	tb.Skipf(format, args...)
}

// TFail is t.Fail().
func TFail(tb testing.TB) {
	tb.Helper()
	lateFail(tb)
	tb.Fail()
}

// TFailNow is t.FailNow().
func TFailNow(tb testing.TB) {
	tb.Helper()
	lateFail(tb)
	tb.FailNow()
}

// The Any forms are the same calls through an interface other than
// testing.TB that has testing.TB's method (a logger's TestingT, as zaptest
// declares one): the rewriter cannot know that the value is a *testing.T,
// so they look.

// TLogAny is x.Log(args...).
func TLogAny(x any, args ...any) {
	if tb, ok := x.(testing.TB); ok {
		tb.Helper()
		TLog(tb, args...)
		return
	}
	x.(interface{ Log(...any) }).Log(args...)
}

// TLogfAny is x.Logf(format, args...).
func TLogfAny(x any, format string, args ...any) {
	if tb, ok := x.(testing.TB); ok {
		tb.Helper()
		TLogf(tb, format, args...)
		return
	}
	x.(interface{ Logf(string, ...any) }).Logf(format, args...)
}

// TErrorAny is x.Error(args...).
func TErrorAny(x any, args ...any) {
	if tb, ok := x.(testing.TB); ok {
		tb.Helper()
		TError(tb, args...)
		return
	}
	x.(interface{ Error(...any) }).Error(args...)
}

// TErrorfAny is x.Errorf(format, args...).
func TErrorfAny(x any, format string, args ...any) {
	if tb, ok := x.(testing.TB); ok {
		tb.Helper()
		TErrorf(tb, format, args...)
		return
	}
	x.(interface{ Errorf(string, ...any) }).Errorf(format, args...)
}

// TFatalAny is x.Fatal(args...).
func TFatalAny(x any, args ...any) {
	if tb, ok := x.(testing.TB); ok {
		tb.Helper()
		TFatal(tb, args...)
		return
	}
	x.(interface{ Fatal(...any) }).Fatal(args...)
}

// TFatalfAny is x.Fatalf(format, args...).
func TFatalfAny(x any, format string, args ...any) {
	if tb, ok := x.(testing.TB); ok {
		tb.Helper()
		TFatalf(tb, format, args...)
		return
	}
	x.(interface{ Fatalf(string, ...any) }).Fatalf(format, args...)
}

// TSkipAny is x.Skip(args...).
func TSkipAny(x any, args ...any) {
	if tb, ok := x.(testing.TB); ok {
		tb.Helper()
		TSkip(tb, args...)
		return
	}
	x.(interface{ Skip(...any) }).Skip(args...)
}

// TSkipfAny is x.Skipf(format, args...).
func TSkipfAny(x any, format string, args ...any) {
	if tb, ok := x.(testing.TB); ok {
		tb.Helper()
		TSkipf(tb, format, args...)
		return
	}
	x.(interface{ Skipf(string, ...any) }).Skipf(format, args...)
}

// TFailAny is x.Fail().
func TFailAny(x any) {
	if tb, ok := x.(testing.TB); ok {
		tb.Helper()
		TFail(tb)
		return
	}
	x.(interface{ Fail() }).Fail()
}

// TFailNowAny is x.FailNow().
func TFailNowAny(x any) {
	if tb, ok := x.(testing.TB); ok {
		tb.Helper()
		TFailNow(tb)
		return
	}
	x.(interface{ FailNow() }).FailNow()
}
