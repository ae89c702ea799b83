package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// What a test's goroutines do after the test function returned is seen as
// go test sees it when the test runs alone: a late t.Log or t.Errorf panics
// with testing's message, a panic says it came after the test returned, and
// logging in time (or into a parent that still runs) is no bug.
func TestTestingModelLate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/testingmodel")
	_, sums, stderr := periodJSON(t, "test", "-json", "-budget", "20", "-o", t.TempDir(), dir)
	if len(sums) != 9 {
		t.Fatalf("%d summaries, want 9: %s", len(sums), stderr)
	}
	for test, want := range map[string]string{
		"TestLateLog":        "after TestLateLog returned: Log in goroutine after TestLateLog has completed: late",
		"TestLateError":      "after TestLateError returned: Log in goroutine after TestLateError has completed: late 1",
		"TestLatePanic":      "panic in goroutine g0.1 after TestLatePanic returned: boom",
		"TestLateFail":       "after TestLateFail returned: Fail in goroutine after TestLateFail has completed",
		"TestLateSubtestLog": "after TestLateSubtestLog returned: Log in goroutine after TestLateSubtestLog/sub has completed: late sub",
		// through a logger's own TestingT interface (GoBench's serving#6171)
		"TestLateLogThroughInterface": "Log in goroutine after TestLateLogThroughInterface has completed: INFO late",
	} {
		bugs := sums[test].Bugs
		if len(bugs) != 1 || bugs[0].Kind != "panic" || !strings.Contains(bugs[0].Message, want) {
			t.Errorf("%s: want one panic saying %q, got %+v", test, want, bugs)
		}
	}
	for _, test := range []string{"TestLogInTime", "TestSubtestLogParentAlive", "TestFakeTestingT"} {
		if bugs := sums[test].Bugs; len(bugs) != 0 {
			t.Errorf("%s: want no bug, got %+v", test, bugs)
		}
	}
}

// Subtests run through an interface that *testing.T satisfies (testify's
// suite.Run) are controlled as t.Run's are: explored, their bugs found.
// Before, the real t.Run ran them outside control (one schedule, no bug).
func TestSubtestsThroughRunner(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/suiterun")
	_, sums, stderr := periodJSON(t, "test", "-json", "-budget", "50", "-o", t.TempDir(), dir)
	if len(sums) != 2 {
		t.Fatalf("%d summaries, want 2: %s", len(sums), stderr)
	}
	if s := sums["TestSuiteLocked"]; s.Schedules != 50 || len(s.Bugs) != 0 || s.Uncontrolled != 0 {
		t.Errorf("TestSuiteLocked: want 50 controlled schedules and no bug, got %+v", s)
	}
	if s := sums["TestSuiteLostUpdate"]; len(s.Bugs) == 0 {
		t.Errorf("TestSuiteLostUpdate: the lost update was not found: %+v", s)
	}
}
