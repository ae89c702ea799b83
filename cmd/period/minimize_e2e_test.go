package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/period-dev/period/trace"
)

// TestMinimizeExamples finds the bugs of the examples (and of testdata
// programs with bugs) with minimisation on, and checks every minimised file:
// it replays to the same bug (kind and location), has no more switches than
// the original, and minimising the original again gives the same bytes.
func TestMinimizeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores every example")
	}
	root, _ := filepath.Abs("../../examples")
	dirs := exampleDirs(t, root)
	leaks, _ := filepath.Abs("testdata/leaks")
	dirs = append(dirs, leaks)
	var before, after []int
	for _, dir := range dirs {
		dir := dir
		t.Run(filepath.Base(dir), func(t *testing.T) {
			out := t.TempDir()
			_, sums, stderr := periodJSON(t, "test", "-json", "-continue", "-budget", "300", "-o", out, dir)
			if len(sums) == 0 {
				t.Fatalf("no summaries: %s", stderr)
			}
			tests := make([]string, 0, len(sums))
			for test := range sums {
				tests = append(tests, test)
			}
			sort.Strings(tests)
			for _, test := range tests {
				for _, b := range sums[test].Bugs {
					if b.Kind == "hang" {
						continue
					}
					if b.Minimized == "" || b.Shrink == nil {
						t.Errorf("%s: the %s at %s was not minimised", test, b.Kind, b.Location)
						continue
					}
					orig, err := trace.ReadFile(b.Replay)
					if err != nil {
						t.Fatal(err)
					}
					min, err := trace.ReadFile(b.Minimized)
					if err != nil {
						t.Fatal(err)
					}
					if c := trace.CostOf(min.Entries); c != b.Shrink.After || trace.CostOf(orig.Entries) != b.Shrink.Before {
						t.Errorf("%s: Shrink %+v does not match the files (%+v, %+v)", test, b.Shrink, trace.CostOf(orig.Entries), c)
					}
					if b.Shrink.After.Switches > b.Shrink.Before.Switches {
						t.Errorf("%s: minimised to more switches: %+v", test, b.Shrink)
					}
					if min.Kind != orig.Kind || min.Location != orig.Location {
						t.Errorf("%s: minimised file records %s at %s, the original %s at %s", test, min.Kind, min.Location, orig.Kind, orig.Location)
					}
					before = append(before, b.Shrink.Before.Switches)
					after = append(after, b.Shrink.After.Switches)
					code, rs, stderr := periodJSON(t, "replay", "-json", b.Minimized)
					r := rs[test]
					if code != 1 || r.Diverged != "" || len(r.Bugs) == 0 || r.Bugs[0].Kind != b.Kind || r.Bugs[0].Location != b.Location {
						t.Errorf("%s: the minimised %s does not replay to the same bug: exit %d %+v %s", test, b.Kind, code, r, stderr)
					}
					first, _ := os.ReadFile(b.Minimized)
					code, _, stderr = periodJSON(t, "minimize", "-json", b.Replay)
					second, _ := os.ReadFile(b.Minimized)
					if code != 1 || !bytes.Equal(first, second) {
						t.Errorf("%s: minimising %s again: exit %d, same file %v; %s", test, b.Replay, code, bytes.Equal(first, second), stderr)
					}
				}
			}
		})
	}
	t.Logf("switches before: %v", before)
	t.Logf("switches after:  %v", after)
}
