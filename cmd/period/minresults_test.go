package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/period-dev/period/internal/bench"
	"github.com/period-dev/period/internal/report"
)

var writeResults = flag.Bool("write-results", false, "TestMinimizeResults: write the minimisation table into docs/results.md")

// TestMinimizeResults runs period test as a user would (default flags:
// budget 1000, minimisation on) on every package of examples/ and bench/,
// and with -write-results writes the switches of every bug before and after
// minimisation, and their medians, into docs/results.md:
//
//	go test ./cmd/period -run TestMinimizeResults -write-results -v -timeout 60m
func TestMinimizeResults(t *testing.T) {
	if !*writeResults {
		t.Skip("writes docs/results.md: run with -write-results")
	}
	start := time.Now()
	type row struct {
		set, name, kind, loc string
		b                    report.JSONBug
	}
	var rows []row
	for _, set := range []string{"examples", "bench"} {
		root, _ := filepath.Abs("../../" + set)
		dirs := exampleDirs(t, root)
		var pkgs []string
		for _, d := range dirs {
			if fs, _ := filepath.Glob(filepath.Join(d, "*_test.go")); len(fs) > 0 {
				pkgs = append(pkgs, d)
			}
		}
		_, sums, stderr := periodJSON(t, append([]string{"test", "-json", "-o", t.TempDir()}, pkgs...)...)
		if len(sums) == 0 {
			t.Fatalf("%s: no summaries: %s", set, stderr)
		}
		for _, s := range sums {
			pkg := s.Package[strings.LastIndex(s.Package, "/")+1:]
			for _, b := range s.Bugs {
				rows = append(rows, row{set, pkg + "/" + strings.TrimPrefix(s.Test, "Test"), b.Kind, b.Location, b})
			}
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].set != rows[j].set {
			return rows[i].set > rows[j].set // examples first
		}
		return key(rows[i].name, rows[i].kind, rows[i].loc, rows[i].b) < key(rows[j].name, rows[j].kind, rows[j].loc, rows[j].b)
	})
	var tb strings.Builder
	fmt.Fprintf(&tb, "| set | test | bug | switches | steps | goroutines | runs |\n|---|---|---|---|---|---|---|\n")
	before, after := map[string][]int{}, map[string][]int{}
	kept := 0
	for _, r := range rows {
		sh := r.b.Shrink
		if sh == nil {
			kept++
			fmt.Fprintf(&tb, "| %s | %s | %s at %s | kept as recorded | | | |\n", r.set, r.name, r.kind, r.loc)
			continue
		}
		keys := []string{r.set, "all"}
		if r.kind != "race" {
			keys = append(keys, r.set+" but races", "all but races")
		}
		for _, k := range keys {
			before[k] = append(before[k], sh.Before.Switches)
			after[k] = append(after[k], sh.After.Switches)
		}
		fmt.Fprintf(&tb, "| %s | %s | %s at %s | %d -> %d | %d -> %d | %d -> %d | %d |\n", r.set, r.name, r.kind, r.loc,
			sh.Before.Switches, sh.After.Switches, sh.Before.Steps, sh.After.Steps, sh.Before.Goroutines, sh.After.Goroutines, sh.Tries)
	}
	var md strings.Builder
	fmt.Fprintf(&md, "%s\n\n## Minimal failing schedules\n\n", bench.MinimizeBegin)
	fmt.Fprintf(&md, "Every bug `period test` reports with its default flags (budget 1000, `period` seed 1, minimisation on) on the packages of examples/ and bench/, ")
	fmt.Fprintf(&md, "and the context switches of its schedule before and after minimisation (README, Minimal failing schedules). ")
	fmt.Fprintf(&md, "Written by `go test ./cmd/period -run TestMinimizeResults -write-results -v -timeout 60m` on %s (%s, %v); `period bench` keeps this block.\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.Version(), time.Since(start).Round(time.Second))
	fmt.Fprintf(&md, "| bugs | minimised | median switches before | median after | most before | most after |\n|---|---|---|---|---|---|\n")
	for _, k := range []string{"examples", "examples but races", "bench", "bench but races", "all", "all but races"} {
		n := 0
		for _, r := range rows {
			if (k == "all" || k == r.set) || (k == "all but races" || k == r.set+" but races") && r.kind != "race" {
				n++
			}
		}
		fmt.Fprintf(&md, "| %s: %d | %d | %s | %s | %d | %d |\n", k, n, len(before[k]), median(before[k]), median(after[k]), maxOf(before[k]), maxOf(after[k]))
	}
	fmt.Fprintf(&md, "\nRaces are reported as soon as two accesses can be reordered, so they shrink to two or three switches; \"but races\" leaves them out. ")
	fmt.Fprintf(&md, "Hangs, schedules that killed the test process and records over 500,000 steps are kept as recorded (%d here).\n\n", kept)
	md.WriteString(tb.String())
	md.WriteString("\n" + bench.MinimizeEnd)
	t.Log(md.String())
	file := "../../docs/results.md"
	old, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(bench.SetBlock(string(old), bench.MinimizeBegin, bench.MinimizeEnd, md.String())), 0o644); err != nil {
		t.Fatal(err)
	}
}

// key orders rows completely, so that the table is the same on every run.
func key(name, kind, loc string, b report.JSONBug) string {
	k := fmt.Sprintf("%s %s %s", name, kind, loc)
	if sh := b.Shrink; sh != nil {
		k += fmt.Sprintf(" %06d %06d %06d %06d %06d %06d", sh.Before.Switches, sh.After.Switches, sh.Before.Steps, sh.After.Steps, sh.Before.Goroutines, sh.After.Goroutines)
	}
	return k + " " + b.Message
}

func median(xs []int) string {
	if len(xs) == 0 {
		return "-"
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	if len(s)%2 == 1 {
		return fmt.Sprint(s[len(s)/2])
	}
	m := s[len(s)/2-1] + s[len(s)/2]
	if m%2 == 0 {
		return fmt.Sprint(m / 2)
	}
	return fmt.Sprintf("%d.5", m/2)
}

func maxOf(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
