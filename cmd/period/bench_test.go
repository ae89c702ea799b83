package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/period-dev/period/internal/bench"
)

// TestBenchSmoke runs period bench end to end on two small benchmark
// programs with two strategies and a tiny budget.
func TestBenchSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores two benchmark programs")
	}
	out, stderr, r := runBench(t, []string{"goctxleak", "deadlock01"}, "-strategies", "random,dfs", "-budget", "30", "-seeds", "2")
	if !strings.Contains(stderr, "bench: [1/9 ") {
		t.Errorf("no progress lines on stderr:\n%s", stderr)
	}
	// 3 annotated tests x 2 strategies; random runs 2 seeds, dfs (seed-free) one.
	if len(r.Tests) != 3 || len(r.Cells) != 6 {
		t.Fatalf("%d tests, %d cells, want 3 and 6", len(r.Tests), len(r.Cells))
	}
	for _, c := range r.Cells {
		if want := map[string]int{"random": 2, "dfs": 1}[c.Strategy]; len(c.Trials) != want {
			t.Errorf("%s %s: %d trials, want %d", c.Test, c.Strategy, len(c.Trials), want)
		}
		for _, tr := range c.Trials {
			switch {
			case tr.Error != "":
				t.Errorf("%s %s seed %d: %s", c.Test, c.Strategy, tr.Seed, tr.Error)
			case c.Want == "none" && len(tr.Kinds) > 0:
				t.Errorf("%s %s seed %d: false alarm %v", c.Test, c.Strategy, tr.Seed, tr.Kinds)
			case c.Want == "leak" && (!tr.Found || tr.Buggy < 1 || tr.First < 1):
				t.Errorf("%s %s seed %d: the leak was not found: %+v", c.Test, c.Strategy, tr.Seed, tr)
			}
		}
	}
	for _, f := range []string{"results.md", "results.csv", bench.CumulativeSVG, bench.OverheadSVG} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestBenchScaling runs period bench -scaling on one small benchmark
// program: -p 1 and -p 2 must find the same first bugs, the tables must be
// written, and -render must write them again from results.json alone.
func TestBenchScaling(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a benchmark program")
	}
	out, _, r := runBench(t, []string{"goctxleak"}, "-scaling", "-strategies", "pct,dfs", "-budget", "20", "-seeds", "1")
	sc := r.Scaling
	if sc == nil || len(sc.Runs) != 2 || sc.Differ != 0 {
		t.Fatalf("scaling: %+v, want 2 runs (pct on the 2 tests) and no difference", sc)
	}
	for _, run := range sc.Runs {
		if run.P1.Error != "" || run.P2.Error != "" || run.Diff != "" || run.P1.Procs != 1 || run.P2.Procs != 2 {
			t.Errorf("%s: %+v", run.Test, run)
		}
		if run.P1.First != run.P2.First || run.P1.Schedules != run.P2.Schedules {
			t.Errorf("%s: first bug at %d (of %d schedules) with -p 1, at %d (of %d) with -p 2", run.Test, run.P1.First, run.P1.Schedules, run.P2.First, run.P2.Schedules)
		}
		if (run.P1.First > 0) != (run.Want == "leak") {
			t.Errorf("%s (wants %s): first bug %s at %d", run.Test, run.Want, run.P1.FirstKind, run.P1.First)
		}
	}
	if len(sc.Spaces) == 0 || len(sc.Spaces[0].Sim) != len(bench.ScalingWorkers) || sc.Spaces[0].Start <= 0 || sc.Merge <= 0 {
		t.Fatalf("no simulated space: %+v", sc)
	}
	md, _ := os.ReadFile(filepath.Join(out, "results.md"))
	for _, want := range []string{"## Scaling: `-p 1` against `-p 2`", "in all 2 explorations compared", "### Exhausting the largest bounded spaces", "| goctxleak First"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("results.md lacks %q:\n%s", want, md)
		}
	}
	again := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "-render", filepath.Join(out, "results.json"), "-o", again}, &stdout, &stderr); code != exitOK {
		t.Fatalf("-render: exit %d: %s", code, stderr.String())
	}
	if md2, _ := os.ReadFile(filepath.Join(again, "results.md")); string(md2) != string(md) {
		t.Errorf("-render wrote:\n%s\nwant:\n%s", md2, md)
	}
}

// runBench runs period bench with flags on the benchmark programs pkgs
// (directories of bench/), writing into a temporary directory, and returns
// that directory, the progress lines and the results.
func runBench(t *testing.T, pkgs []string, flags ...string) (out, stderr string, r *bench.Results) {
	t.Helper()
	root, _ := filepath.Abs("../..")
	out = t.TempDir()
	args := append(append([]string{"bench"}, flags...), "-o", out)
	for _, p := range pkgs {
		args = append(args, filepath.Join(root, "bench", p))
	}
	var so, se bytes.Buffer
	if code := run(args, &so, &se); code != exitOK {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	r, err := bench.ReadJSON(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	return out, se.String(), r
}
