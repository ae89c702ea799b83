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
	root, _ := filepath.Abs("../..")
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "-strategies", "random,dfs", "-budget", "30", "-seeds", "2", "-o", out,
		filepath.Join(root, "bench", "goctxleak"), filepath.Join(root, "bench", "deadlock01")}, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "bench: [1/9 ") {
		t.Errorf("no progress lines on stderr:\n%s", stderr.String())
	}
	r, err := bench.ReadJSON(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
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
