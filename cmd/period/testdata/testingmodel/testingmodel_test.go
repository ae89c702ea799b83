// Package testingmodel: what a test's goroutines do after the test function
// returned, as go test runs it (the test alone: go test -run '^TestX$').
package testingmodel

import (
	"testing"
	"time"
)

// go test: panic: Log in goroutine after TestLateLog has completed: late
func TestLateLog(t *testing.T) {
	go func() {
		time.Sleep(time.Millisecond)
		t.Log("late")
	}()
}

// t.Errorf logs first: the same panic, with the message.
func TestLateError(t *testing.T) {
	go func() {
		time.Sleep(time.Millisecond)
		t.Errorf("late %d", 1)
	}()
}

// A panic in work left behind says so.
func TestLatePanic(t *testing.T) {
	go func() {
		time.Sleep(time.Millisecond)
		panic("boom")
	}()
}

// Logging before the test returns is fine.
func TestLogInTime(t *testing.T) {
	done := make(chan bool)
	go func() {
		t.Log("in time")
		done <- true
	}()
	<-done
}

// A subtest's goroutine that logs after the subtest completed, while its
// parent still runs: go test writes the line to the parent, no panic.
func TestSubtestLogParentAlive(t *testing.T) {
	done := make(chan bool)
	t.Run("sub", func(t *testing.T) {
		go func() {
			time.Sleep(time.Millisecond)
			t.Log("after sub")
			done <- true
		}()
	})
	<-done
}

// go test: panic: Fail in goroutine after TestLateFail has completed (while
// other tests run; alone, testing names its root test, whose name is "").
func TestLateFail(t *testing.T) {
	go func() {
		time.Sleep(time.Millisecond)
		t.Fail()
	}()
}

// A subtest's T once the whole test returned: the subtest's name.
func TestLateSubtestLog(t *testing.T) {
	t.Run("sub", func(t *testing.T) {
		go func() {
			time.Sleep(time.Millisecond)
			t.Logf("late %s", "sub")
		}()
	})
}

// TestingT is how a logging library takes a test's T (zaptest declares one
// like it): the calls through it are the T's own.
type TestingT interface {
	Logf(format string, args ...interface{})
	Errorf(format string, args ...interface{})
}

type logger struct{ t TestingT }

func (l logger) Info(msg string) { l.t.Logf("INFO %s", msg) }

// go test: panic: Log in goroutine after TestLateLogThroughInterface has completed: INFO late
func TestLateLogThroughInterface(t *testing.T) {
	l := logger{t}
	go func() {
		time.Sleep(time.Millisecond)
		l.Info("late")
	}()
}

// A fake TestingT that is not a *testing.T is called as it is.
type fakeT struct{ lines []string }

func (f *fakeT) Logf(format string, args ...interface{})   { f.lines = append(f.lines, format) }
func (f *fakeT) Errorf(format string, args ...interface{}) { f.lines = append(f.lines, format) }

func TestFakeTestingT(t *testing.T) {
	f := &fakeT{}
	l := logger{f}
	done := make(chan bool)
	go func() {
		l.Info("x")
		done <- true
	}()
	<-done
	if len(f.lines) != 1 {
		t.Errorf("fake got %d lines", len(f.lines))
	}
}
