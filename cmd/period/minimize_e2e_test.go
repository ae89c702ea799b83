package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/period-dev/period/internal/report"
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
	var shrinks []string
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
					shrinks = append(shrinks, fmt.Sprintf("%s/%s %s: switches %d -> %d, steps %d -> %d, goroutines %d -> %d, %d tries",
						filepath.Base(dir), test, b.Kind, b.Shrink.Before.Switches, b.Shrink.After.Switches, b.Shrink.Before.Steps, b.Shrink.After.Steps,
						b.Shrink.Before.Goroutines, b.Shrink.After.Goroutines, b.Shrink.Tries))
					code, rs, stderr := periodJSON(t, "replay", "-json", b.Minimized)
					r := rs[test]
					same := false // a race may come first: it does not end a run
					for _, rb := range r.Bugs {
						same = same || rb.Kind == b.Kind && rb.Location == b.Location
					}
					if code != 1 || r.Diverged != "" || !same {
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
	t.Logf("minimised:\n%s", strings.Join(shrinks, "\n"))
}

// TestMinimizeHandDerived checks an order violation against the minimum
// derived by hand. In wgadd's TestSum, Sum fails when the caller reaches
// wg.Wait before a worker's wg.Add: g0 starts; its first send needs g0.1
// at its receive (switch 1: g0.1 starts and receives, completing the
// hand-off); its second send needs g0.2 at its receive (switch 2: g0.2
// starts); g0 then sends, waits on a zero counter and reads the total
// (switch 3). No schedule with fewer switches fails: g0 must run last, and
// g0.2 exists only after the first hand-off. 8 steps, 3 goroutines.
func TestMinimizeHandDerived(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores an example")
	}
	dir, _ := filepath.Abs("../../examples/wgadd")
	pages := t.TempDir()
	_, sums, stderr := periodJSON(t, "test", "-json", "-race=false", "-run", "^TestSum$", "-html", pages, "-o", t.TempDir(), dir)
	s, ok := sums["TestSum"]
	if !ok || len(s.Bugs) != 1 || s.Bugs[0].Shrink == nil {
		t.Fatalf("no minimised bug: %+v %s", s, stderr)
	}
	if got, want := s.Bugs[0].Shrink.After, (trace.Cost{Switches: 3, Steps: 8, Goroutines: 3}); got != want {
		t.Errorf("minimised to %+v, want %+v (from %+v)", got, want, s.Bugs[0].Shrink.Before)
	}
	min, err := trace.ReadFile(s.Bugs[0].Minimized)
	if err != nil {
		t.Fatal(err)
	}
	// The runs of goroutines, as derived (which side of a hand-off takes
	// the step is the engine's business).
	var runs []string
	for _, e := range min.Entries {
		if !e.Choice && (len(runs) == 0 || runs[len(runs)-1] != e.G) {
			runs = append(runs, e.G)
		}
	}
	if got, want := strings.Join(runs, " "), "0 0.1 0.2 0"; got != want {
		t.Errorf("minimised runs %s, want %s", got, want)
	}
	// -html wrote the timeline page of the minimised schedule.
	page := filepath.Join(pages, strings.TrimSuffix(filepath.Base(s.Bugs[0].Minimized), ".period")+".html")
	html, err := os.ReadFile(page)
	if err != nil || strings.Count(string(html), `<circle class="mark`) != 8 || !strings.Contains(string(html), "minimised from ") {
		t.Errorf("no timeline page of the minimised schedule with its 8 steps: %v", err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"view", "-o", filepath.Join(pages, "v.html"), s.Bugs[0].Replay}, &out, &errb); code != 0 {
		t.Errorf("period view: exit %d: %s", code, errb.String())
	}
}

// TestMinimizeReorder checks the paper's reorder programs against the
// minimum derived by hand. In reorder_N, N-1 setters write a then b and a
// checker fails the test when it sees a written and b not. The checker must
// run between one setter's two writes (that setter is preempted once); g0
// starts first and, waiting for everybody, ends last; every other setter
// runs once. So g0, setter (a), checker, setter (b), the N-2 other setters,
// g0: N+2 switches, with every step of every goroutine (the test fails
// when it returns).
func TestMinimizeReorder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores benchmarks")
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"reorder3", 3}, {"reorder10", 10}} {
		dir, _ := filepath.Abs("../../bench/" + c.name)
		_, sums, stderr := periodJSON(t, "test", "-json", "-race=false", "-o", t.TempDir(), dir)
		var bug *report.JSONBug
		for _, s := range sums {
			for i := range s.Bugs {
				if s.Bugs[i].Kind == "fail" {
					bug = &s.Bugs[i]
				}
			}
		}
		if bug == nil || bug.Shrink == nil {
			t.Errorf("%s: no minimised failure: %v %s", c.name, sums, stderr)
			continue
		}
		if got := bug.Shrink.After; got.Switches != c.n+2 || got.Steps != bug.Shrink.Before.Steps || got.Goroutines != c.n+1 {
			t.Errorf("%s: minimised to %+v from %+v, want %d switches, every step, %d goroutines", c.name, got, bug.Shrink.Before, c.n+2, c.n+1)
		}
	}
}
