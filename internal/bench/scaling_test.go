package bench

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// costsOf is a space of n schedules of 20 to 140 µs in a fixed pattern.
func costsOf(n int) []float64 {
	c := make([]float64, n)
	for i := range c {
		c[i] = float64(20+(i*37)%121) * 1e-6
	}
	return c
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestSimulateOneWorker(t *testing.T) {
	costs := costsOf(1000)
	m := Model{Start: 0.005, Merge: 2e-6}
	s := m.Simulate(costs, 1)
	// The merge of a report keeps up with the next schedule: only the
	// last one's is left at the end.
	if want := m.Start + sum(costs) + m.Merge; !near(s.Time, want) || s.Units != 1 {
		t.Errorf("1 worker: %v in %d units, want the start, every cost and a merge: %v in 1", s.Time, s.Units, want)
	}
	// A merge slower than the schedules: it is the time after the first
	// report.
	m.Merge = 1e-3
	if s, want := m.Simulate(costs, 1), m.Start+costs[0]+m.Merge*1000; !near(s.Time, want) {
		t.Errorf("1 worker, slow merge: %v, want %v", s.Time, want)
	}
}

func TestSimulateLowerBound(t *testing.T) {
	for _, m := range []Model{{0.005, 2e-6}, {0, 0}, {1e-4, 0}, {0.005, 1e-4}, {1e-3, 5e-6}} {
		for _, n := range []int{1, 2, 7, 100, 1000} {
			costs := costsOf(n)
			for _, w := range []int{1, 2, 3, 16, 100, 256} {
				s := m.Simulate(costs, w)
				if s.Time < s.Lower*(1-1e-12) || !near(s.Lower, m.Lower(costs, w)) {
					t.Errorf("%+v, %d schedules, %d workers: %v below the lower bound %v", m, n, w, s.Time, s.Lower)
				}
				if s.Units > n {
					t.Errorf("%+v, %d schedules, %d workers: %d units", m, n, w, s.Units)
				}
				if one := m.Simulate(costs, 1); s.Time > one.Time*(1+1e-12) {
					t.Errorf("%+v, %d schedules: %d workers take %v, longer than one (%v)", m, n, w, s.Time, one.Time)
				}
				if again := m.Simulate(costs, w); again != s {
					t.Errorf("not deterministic: %+v then %+v", s, again)
				}
			}
		}
	}
}

func TestSimulateScales(t *testing.T) {
	// Cheap starts and merge: 16 workers come close to 16 times faster.
	costs := costsOf(10000)
	m := Model{Start: 1e-4, Merge: 1e-8}
	one, many := m.Simulate(costs, 1), m.Simulate(costs, 16)
	if x := one.Time / many.Time; x < 12 || x > 16 {
		t.Errorf("16 workers: speed-up %.2f, want between 12 and 16", x)
	}
	if many.Bound != "work" {
		t.Errorf("16 workers bound by %q, want work", many.Bound)
	}
}

func TestSimulateSaturates(t *testing.T) {
	// Fewer schedules than workers: the ones beyond get nothing to do.
	costs := costsOf(16)
	m := Model{Start: 1e-6, Merge: 1e-7}
	a, b := m.Simulate(costs, 64), m.Simulate(costs, 256)
	if a.Time != b.Time || a.Units != b.Units || a.Units > 16 {
		t.Errorf("64 workers %+v, 256 workers %+v: want the same time, at most 16 units", a, b)
	}
	// A process start longer than all the work: nobody steals.
	m = Model{Start: 1, Merge: 1e-7}
	if s := m.Simulate(costsOf(1000), 256); s.Units != 1 || !near(s.Time, m.Simulate(costsOf(1000), 1).Time) || s.Bound != "process starts" {
		t.Errorf("starts dominate: %+v, want one unit, the time of one worker", s)
	}
	// A merge longer than any share of the work: the merge bounds.
	m = Model{Start: 1e-4, Merge: 1e-3}
	if s := m.Simulate(costsOf(1000), 256); s.Time < m.Merge*1000 || s.Bound != "merge" {
		t.Errorf("merge dominates: %+v, want at least %v", s, m.Merge*1000)
	}
	coord, merge, longest := Model{Start: 0.01, Merge: 1e-6}.Limits([]float64{0.1, 0.1, 0.2})
	if !near(coord, 40) || !near(merge, 4e5/3) || !near(longest, 2) {
		t.Errorf("limits %v %v %v, want 40, 133333 and 2", coord, merge, longest)
	}
	// One schedule longer than the rest together: nothing helps.
	costs = append(costsOf(100), 1.0)
	m = Model{Start: 1e-4, Merge: 1e-7}
	if s := m.Simulate(costs, 16); s.Bound != "longest schedule" || s.Time < m.Start+1 {
		t.Errorf("a long schedule: %+v", s)
	}
}

func TestDiffer(t *testing.T) {
	a := PRun{Procs: 1, Schedules: 12, First: 12, FirstKind: "deadlock", Bugs: []string{"deadlock at x.go:3, schedule 12"}}
	b := a
	b.Procs, b.Elapsed = 2, 9
	if d := a.differ(b); d != "" {
		t.Errorf("same explorations differ: %s", d)
	}
	b.Bugs = []string{"deadlock at x.go:3, schedule 11"}
	if d := a.differ(b); !strings.Contains(d, "schedule 11") {
		t.Errorf("differ = %q, want the bugs", d)
	}
	b = a
	b.Error = "test process failed"
	b.Schedules = 3
	if d := a.differ(b); d != "" {
		t.Errorf("an error is no difference: %q", d)
	}
}

// withScaling is handMade with a scaling section worked out by hand.
func withScaling() *Results {
	r := handMade()
	run := func(test, want, s string, first int, el1, el2 float64, diff string) ScaleRun {
		p1 := PRun{Procs: 1, Schedules: 100, Elapsed: el1, Wall: el1 + 0.01}
		if first > 0 && want != "race" { // a race does not end an exploration
			p1.Schedules = first
		}
		if first > 0 {
			p1.First, p1.FirstKind, p1.Bugs = first, want, []string{fmt.Sprintf("%s at x.go:1, schedule %d", want, first)}
		}
		p2 := p1
		p2.Procs, p2.Elapsed, p2.Wall = 2, el2, el2+0.02
		return ScaleRun{Package: "x/" + strings.ToLower(strings.TrimPrefix(test, "Test")), Test: test, Want: want, Strategy: s, P1: p1, P2: p2, Diff: diff}
	}
	m := Model{Start: 0.004, Merge: 5e-6}
	sp := Space{Package: "x/reorder", Test: "TestReorder", Strategy: "dfs", Schedules: 4, Elapsed: 0.0021, PerSchedule: true, Costs: []float64{500, 300, 400, 800}}
	sp.simulate(m, ScalingWorkers)
	r.Scaling = &Scaling{Seed: 1, Merge: m.Merge, Workers: ScalingWorkers, Load: "0.5 0.4 0.3 -> 0.6 0.5 0.4",
		Runs: []ScaleRun{
			run("TestReorder", "fail", "random", 40, 0.004, 0.002, ""),
			run("TestOK", "none", "random", 0, 0.01, 0.008, ""),
			run("TestOK", "none", "pct", 0, 0.01, 0.02, ""),
			run("TestRace", "race", "random", 1, 0.01, 0.01, ""),
		},
		Spaces: []Space{sp}}
	return r
}

func TestScalingMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, withScaling(), ""); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	lacks(t, "results.md", md,
		"## Scaling: `-p 1` against `-p 2`, and many workers simulated",
		"in all 4 explorations compared.",
		"at the end of these measurements: 0.5 0.4 0.3 -> 0.6 0.5 0.4.",
		// 100 schedules in 0.01 s and 0.008 s (walls 0.02 and 0.028), and
		// the race's 100 (it did not stop the exploration) in 0.01 s with
		// both (walls 0.02 and 0.03): speed-ups 1.25 and 1.
		"| random | 2 | 200 | 10000 | 11111 | 1.11x | 1.12x (1.00-1.25) | 0.04 | 0.06 | 0.69x |",
		// With pct's 100 in 0.01 s and 0.02 s: 0.03 s against 0.038 s
		// (walls 0.06 and 0.098), and the geometric mean of 1.25, 1 and 0.5.
		"| **all** | 3 | 300 | 10000 | 7895 | 0.79x | 0.85x (0.50-1.25) | 0.06 | 0.10 | 0.61x |",
		// The first bug at schedule 40 in 0.004 s and 0.002 s.
		"| random | 1 | 40 | 0.004 | 0.002 | 2.00x | 2.00x (2.00-2.00) | 0.01 | 0.02 | 0.64x |",
		"| reorder | random | 40 | fail at 40 | 0.004 | 10000 | 0.002 | 20000 | 2.00x | 0.01 | 0.02 | yes |",
		// 2 ms of work, 4 ms starts: one worker takes 4 + 2 + 0.02 ms, and
		// nobody steals (the rest is worth less than two starts).
		"| reorder Reorder (dfs) | 4 | 0.002 | 4.0 | 0.006 (1.00x; process starts) | 0.006 (1.00x; process starts) | 0.006 (1.00x; process starts) | 1 worker (process starts) |",
		"5.00 µs per schedule")
	if strings.Contains(md, "WARNING") || strings.Contains(md, "DIFFERENT") {
		t.Errorf("a warning without a difference:\n%s", md)
	}
	// A difference between -p 1 and -p 2 is said loudly.
	r := withScaling()
	r.Scaling.Runs[0].P2.Bugs = []string{"fail at x.go:1, schedule 39"}
	r.Scaling.Runs[0].Diff = r.Scaling.Runs[0].P1.differ(r.Scaling.Runs[0].P2)
	r.Scaling.Differ = 1
	b.Reset()
	WriteMarkdown(&b, r, "")
	lacks(t, "results.md", b.String(), "**WARNING: on 1 of 4 explorations `-p 2` did not find what `-p 1` found", "| **DIFFERENT**: bugs ")
	// Without -scaling there is no section.
	b.Reset()
	WriteMarkdown(&b, handMade(), "")
	if strings.Contains(b.String(), "## Scaling") {
		t.Errorf("a scaling section without -scaling")
	}
}

// checkRender checks that the scaling section of r, read back from
// results.json as back, is written again the same (period bench -render),
// and that the stored model results are those of the stored costs.
func checkRender(t *testing.T, r, back *Results) {
	t.Helper()
	var a, b bytes.Buffer
	WriteMarkdown(&a, r, "")
	WriteMarkdown(&b, back, "")
	if a.String() != b.String() {
		t.Errorf("rendered from results.json:\n%s\nwant:\n%s", b.String(), a.String())
	}
	sp := back.Scaling.Spaces[0]
	back.Scaling.Simulate()
	if again := back.Scaling.Spaces[0]; !reflect.DeepEqual(again, sp) {
		t.Errorf("simulating the stored costs again: %+v, stored %+v", again, sp)
	}
}

func TestLargestSpaces(t *testing.T) {
	r := handMade()
	r.Cells[2].Trials[0].Costs = []float64{1e-4, 2e-4} // 2 of dfs's 42 schedules: incomplete
	r.Cells[6].Trials[0].Costs = make([]float64, 10)
	for i := range r.Cells[6].Trials[0].Costs {
		r.Cells[6].Trials[0].Costs[i] = 1e-4
	}
	sps := largestSpaces(r, 3)
	if len(sps) != 2 || sps[0].Test != "TestReorder" || sps[0].Schedules != 42 || sps[1].Schedules != 10 {
		t.Fatalf("largest spaces: %+v", sps)
	}
	if sps[0].PerSchedule || sps[0].Costs[0] != 50 || !sps[1].PerSchedule || sps[1].Costs[3] != 100 {
		t.Errorf("costs: %v %v (µs), per schedule %v %v; want the mean (2.1 ms / 42) then the measured ones", sps[0].Costs[:3], sps[1].Costs[:3], sps[0].PerSchedule, sps[1].PerSchedule)
	}
}

// lacks reports each of wants that text (named what) does not contain.
func lacks(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}

func TestStoppedAtBug(t *testing.T) {
	for _, c := range []struct {
		pr   PRun
		want bool
	}{
		{PRun{Schedules: 12, First: 12}, true},
		{PRun{Schedules: 100}, false},
		{PRun{Schedules: 100, First: 3}, false},  // a race at 3, then the whole budget
		{PRun{Schedules: 57, First: 10}, true},   // a race at 10, a panic at 57
		{PRun{Schedules: 100, First: 100}, true}, // the last schedule of the budget
	} {
		if got := c.pr.stoppedAtBug(100); got != c.want {
			t.Errorf("%+v: stopped at a bug %v, want %v", c.pr, got, c.want)
		}
	}
}
