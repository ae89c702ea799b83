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
