package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The PERIOD paper's claims on real Go programs (bench/, its own module).
// Figure 1: with -continue, the default strategy finds the nil dereference,
// the use after free and the double free of once(), and each replays.
func TestPeriodFindsFigure1Bugs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a benchmark")
	}
	dir, _ := filepath.Abs("../../bench/periodonce")
	code, sums, stderr := periodJSON(t, "test", "-json", "-race=false", "-continue", "-budget", "2000", "-o", t.TempDir(), dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	found := map[string]int{}
	for _, b := range sums["TestOnce"].Bugs {
		for _, what := range []string{"nil pointer dereference", "use after free", "double free"} {
			if strings.Contains(b.Message, what) && found[what] == 0 {
				found[what] = b.Schedule
				checkReplay(t, b.Replay, "panic")
			}
		}
	}
	if len(found) != 3 {
		t.Fatalf("found %v in %d schedules, want all three bugs", found, sums["TestOnce"].Schedules)
	}
	// The nil dereference in Lock, minimised, against the minimum derived
	// by hand: g0 hands over to the victim (1), which reads done == false
	// and is preempted before waiters++ (2); the other runs Once to the end,
	// frees the lock and sets it to nil; the victim resumes and dereferences
	// it (3). g0 must hand over, and the victim must be preempted once.
	for _, b := range sums["TestOnce"].Bugs {
		if strings.HasSuffix(b.Location, "periodonce.go:20") && strings.Contains(b.Message, "nil pointer dereference") {
			if b.Shrink == nil || b.Shrink.After.Switches != 3 {
				t.Errorf("the nil dereference is not minimised to 3 switches: %+v", b.Shrink)
			}
		}
	}
	t.Logf("first schedule of each bug: %v", found)
}

// reorder_N: with three periods the parallel generator reaches the bug at 10
// and at 20 setters, in about the same few schedules (the setters are
// interchangeable; the first runs, which learn which accesses are shared,
// may differ); the serialized generator has no schedule at all with three
// periods (rule R4 needs a period per goroutine).
func TestPeriodReorderThreePeriods(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores benchmarks")
	}
	first := map[string]int{}
	for _, n := range []string{"reorder10", "reorder20"} {
		dir, _ := filepath.Abs("../../bench/" + n)
		test := "TestReorder" + strings.TrimPrefix(n, "reorder")
		code, sums, stderr := periodJSON(t, "test", "-json", "-race=false", "-bound", "3", "-budget", "1000", "-o", t.TempDir(), dir)
		if code != 1 || len(sums[test].Bugs) == 0 {
			t.Fatalf("%s: exit %d, summary %+v: %s", n, code, sums[test], stderr)
		}
		first[n] = sums[test].Bugs[0].Schedule
		code, sums, stderr = periodJSON(t, "test", "-json", "-race=false", "-strategy", "period-serial", "-bound", "3", "-budget", "1000", "-o", t.TempDir(), dir)
		if code != 0 || !sums[test].Exhausted {
			t.Fatalf("%s, period-serial: exit %d, summary %+v: %s", n, code, sums[test], stderr)
		}
	}
	if d := first["reorder20"] - first["reorder10"]; d < -5 || d > 5 || first["reorder20"] > 50 {
		t.Errorf("first bug at schedule %d with 10 setters, %d with 20", first["reorder10"], first["reorder20"])
	}
	t.Logf("first bug: %v", first)
}
