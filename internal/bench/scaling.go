package bench

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/period-dev/period/internal/runner"
	"github.com/period-dev/period/rt"
)

// period bench -scaling measures how exploration spreads over processes
// (docs/parallel.md), in two parts:
//
//   - every benchmark test is explored by each strategy whose schedules
//     period test -p splits (runner.CanSplit: random, pct, ppct) with -p 1
//     and with -p 2, through the runner as period test calls it, stopping
//     at the first bug (so the time is the time to the first bug) and
//     confirming it; -p 2 must find the same bugs at the same schedules;
//   - the largest spaces the systematic strategies exhausted in the run are
//     fed, with their per-schedule costs, to the model of simulate.go for
//     1, 16 and 256 workers.

// Scaling is what period bench -scaling measured.
type Scaling struct {
	Seed   int64      // of the -p explorations
	Runs   []ScaleRun // one per test and splittable strategy
	Differ int        // runs whose -p 2 exploration differs from -p 1's: the determinism contract of -p broken
	// Merge is the seconds the command spends per schedule merging what
	// workers report (runner.MergeCost, median of mergeRuns measurements).
	Merge   float64
	Workers []int   // worker counts simulated
	Spaces  []Space // the largest exhausted spaces, largest first
	Load    string  `json:",omitempty"` // load average at the start and at the end of the scaling part
}

// ScaleRun is one test explored by one splittable strategy with -p 1 and -p 2.
type ScaleRun struct {
	Package  string
	Test     string
	Want     string
	Strategy string
	P1, P2   PRun
	Diff     string `json:",omitempty"` // how -p 2's exploration differs from -p 1's ("": the same, or an error)
}

// PRun is one exploration with -p Procs.
type PRun struct {
	Procs     int
	Schedules int
	Exhausted bool    `json:",omitempty"`
	Elapsed   float64 // seconds exploring, as period test -json says (-p 2: the split's rounds, processes included)
	Wall      float64 // seconds of the runner: processes, confirmation of the bug
	First     int     `json:",omitempty"` // schedule of the first bug (any kind): the exploration stopped there
	FirstKind string  `json:",omitempty"`
	// Bugs are "kind at location, schedule N" in order: what -p 2 must
	// reproduce.
	Bugs  []string `json:",omitempty"`
	Error string   `json:",omitempty"`
}

// Space is an exhausted bounded space and the model's times for it.
type Space struct {
	Package   string
	Test      string
	Strategy  string
	Schedules int
	Work      float64 // seconds: the sum of the schedules' costs
	Elapsed   float64 // seconds: the trial's exploring time (Work and the process's own set-up)
	// PerSchedule: Costs were measured schedule by schedule; false: every
	// schedule is given the trial's mean cost (Elapsed / Schedules), when
	// the per-schedule costs were incomplete (a crashed process).
	PerSchedule bool
	Costs       []float64 // microseconds per schedule, in exploration order
	// Start is a process start of the test binary: the median wall time of
	// procStartRuns explorations of zero schedules through the runner.
	Start float64
	Sim   []Sim // one per Scaling.Workers
	// Where the model stops scaling (Model.Limits), in workers.
	CoordLimit   float64
	MergeLimit   float64
	LongestLimit float64
}

const (
	scalingSeed   = 1
	scalingSpaces = 3     // largest exhausted spaces simulated
	procStartRuns = 5     // zero-schedule runs whose median is a process start
	mergeRuns     = 3     // runner.MergeCost measurements (median)
	mergeN        = 20000 // schedules per MergeCost measurement
)

// ScalingWorkers are the worker counts the model is run with.
var ScalingWorkers = []int{1, 16, 256}

// measureScaling runs both parts of -scaling on the targets res was
// measured on; out is a scratch directory for replay files.
func measureScaling(ctx context.Context, targets []target, res *Results, opts Options, out string) (*Scaling, error) {
	sc := &Scaling{Seed: scalingSeed, Workers: ScalingWorkers, Load: loadavg()}
	defer func() { sc.Load += " -> " + loadavg() }()
	var split []string
	for _, s := range opts.Strategies {
		if runner.CanSplit(rt.Config{Strategy: s, Seed: scalingSeed, Bound: opts.Bound, Budget: opts.Budget}) {
			split = append(split, s)
		}
	}
	for _, tg := range targets {
		for _, s := range split {
			if err := ctx.Err(); err != nil {
				return sc, err
			}
			run := ScaleRun{Package: tg.test.Package, Test: tg.test.Name, Want: tg.test.Want, Strategy: s}
			run.P1 = exploreP(ctx, tg, s, 1, opts, filepath.Join(out, "p1"))
			run.P2 = exploreP(ctx, tg, s, 2, opts, filepath.Join(out, "p2"))
			run.Diff = run.P1.differ(run.P2)
			verdict := fmt.Sprintf("-p 1 %.3fs, -p 2 %.3fs, %d schedules", run.P1.Elapsed, run.P2.Elapsed, run.P1.Schedules)
			if run.Diff != "" {
				sc.Differ++
				verdict = "-p 2 DIFFERS from -p 1: " + run.Diff
			}
			opts.Progress("scaling: %s %s: %s", tg.test.Name, s, verdict)
			sc.Runs = append(sc.Runs, run)
		}
	}
	var merges []float64
	for range mergeRuns {
		m, err := runner.MergeCost(mergeN)
		if err != nil {
			return sc, err
		}
		merges = append(merges, m)
	}
	sc.Merge = median(merges)
	bins := map[[2]string]runner.Binary{}
	for _, tg := range targets {
		bins[[2]string{tg.test.Package, tg.test.Name}] = tg.bin
	}
	for _, sp := range largestSpaces(res, scalingSpaces) {
		bin := bins[[2]string{sp.Package, sp.Test}]
		start, err := procStart(ctx, bin, Test{Package: sp.Package, Name: sp.Test}, sp.Strategy, opts, filepath.Join(out, "start"))
		if err != nil {
			return sc, err
		}
		sp.Start = start
		sp.simulate(sc.model(sp), sc.Workers)
		opts.Progress("scaling: %s %s, %d schedules exhausted: a process start %.1fms, %s", sp.Test, sp.Strategy, sp.Schedules, start*1e3, sp.simLine())
		sc.Spaces = append(sc.Spaces, sp)
	}
	return sc, nil
}

// exploreP explores t with strategy s as period test -p p does (the same
// runner options but the report) from seed scalingSeed, stopping at the
// first bug.
func exploreP(ctx context.Context, tg target, s string, p int, opts Options, out string) PRun {
	cfg := trialConfig(tg.test, s, scalingSeed, opts, out)
	cfg.Continue = false // period test's default: the time is the time to the first bug
	ro := runner.Options{Config: cfg, Timeout: opts.Timeout, Confirm: true}
	if p > 1 {
		ro.Pool, ro.Workers = runner.NewPool(p), p
	}
	t0 := time.Now()
	results, err := runner.Run(ctx, tg.bin, ro)
	pr := PRun{Procs: p, Wall: time.Since(t0).Seconds()}
	switch {
	case err != nil:
		pr.Error = errorLine(err)
		return pr
	case len(results) != 1:
		pr.Error = fmt.Sprintf("%d results for one test", len(results))
		return pr
	}
	r := results[0]
	pr.Schedules, pr.Elapsed, pr.Exhausted = r.Schedules, r.Elapsed, r.Exhausted
	for _, b := range r.Bugs {
		pr.Bugs = append(pr.Bugs, fmt.Sprintf("%s at %s, schedule %d", b.Kind, b.Location, b.Schedule))
		if pr.First == 0 || b.Schedule < pr.First {
			pr.First, pr.FirstKind = b.Schedule, b.Kind
		}
	}
	switch {
	case r.TimedOut:
		pr.Error = fmt.Sprintf("timed out after %v", opts.Timeout)
	case r.Interrupted:
		pr.Error = "interrupted"
	}
	return pr
}

// stoppedAtBug tells whether a bug ended the exploration (of a budget of
// budget schedules) at its last schedule, so that its time is the time to
// that bug: races, which do not end one, may come before it.
func (a PRun) stoppedAtBug(budget int) bool {
	return a.First > 0 && (a.Schedules < budget || a.Schedules == a.First)
}

// differ says how b's exploration differs from a's: "" when they are the
// same (schedules, bugs and where they were found) or when either failed
// to run, which is no verdict on -p.
func (a PRun) differ(b PRun) string {
	if a.Error != "" || b.Error != "" {
		return ""
	}
	var d []string
	if a.Schedules != b.Schedules {
		d = append(d, fmt.Sprintf("%d schedules against %d", a.Schedules, b.Schedules))
	}
	if a.Exhausted != b.Exhausted {
		d = append(d, fmt.Sprintf("exhausted %v against %v", a.Exhausted, b.Exhausted))
	}
	if !slices.Equal(a.Bugs, b.Bugs) {
		d = append(d, fmt.Sprintf("bugs %q against %q", a.Bugs, b.Bugs))
	}
	return strings.Join(d, "; ")
}

// procStart measures a process start of bin: the median wall time of
// procStartRuns explorations of zero schedules of t through the runner
// (exec, Go's and package testing's start-up, rt's set-up, the results
// file written and read), which a unit of work in a process of its own
// pays before its first schedule.
func procStart(ctx context.Context, bin runner.Binary, t Test, strategy string, opts Options, out string) (float64, error) {
	cfg := trialConfig(t, strategy, 1, opts, out)
	cfg.Budget = 0
	var walls []float64
	for range procStartRuns {
		t0 := time.Now()
		rs, err := runner.Run(ctx, bin, runner.Options{Config: cfg, Timeout: opts.Timeout})
		if err != nil {
			return 0, fmt.Errorf("process start of %s: %v", bin.Package, errorLine(err))
		}
		if len(rs) != 1 || rs[0].Schedules != 0 {
			return 0, fmt.Errorf("process start of %s: %d results, want one of 0 schedules", bin.Package, len(rs))
		}
		walls = append(walls, time.Since(t0).Seconds())
	}
	return median(walls), nil
}

// largestSpaces are the n exhausted trials of res with the most schedules
// (then the most exploring time), with their costs.
func largestSpaces(res *Results, n int) []Space {
	var out []Space
	for _, c := range res.Cells {
		for _, t := range c.Trials {
			if !t.Exhausted || t.Error != "" || t.Schedules < 1 {
				continue
			}
			sp := Space{Package: c.Package, Test: c.Test, Strategy: c.Strategy, Schedules: t.Schedules, Elapsed: t.Elapsed}
			sp.PerSchedule = len(t.Costs) == t.Schedules
			for i := range t.Schedules {
				c := t.Elapsed / float64(t.Schedules)
				if sp.PerSchedule {
					c = t.Costs[i]
				}
				sp.Costs = append(sp.Costs, math.Round(c*1e7)/10) // µs, to 0.1
			}
			out = append(out, sp)
		}
	}
	slices.SortStableFunc(out, func(a, b Space) int {
		return cmp.Or(cmp.Compare(b.Schedules, a.Schedules), cmp.Compare(b.Elapsed, a.Elapsed))
	})
	return out[:min(n, len(out))]
}

// model is the model of sp's exhaustion.
func (sc *Scaling) model(sp Space) Model { return Model{Start: sp.Start, Merge: sc.Merge} }

// Simulate runs the model again on the stored measurements of every space
// (period bench -render: the model's results are derived, the costs,
// process starts and merge cost are what was measured).
func (sc *Scaling) Simulate() {
	for i := range sc.Spaces {
		sc.Spaces[i].simulate(sc.model(sc.Spaces[i]), sc.Workers)
	}
}

// seconds are the costs of sp in seconds.
func (sp *Space) seconds() []float64 {
	s := make([]float64, len(sp.Costs))
	for i, c := range sp.Costs {
		s[i] = c / 1e6
	}
	return s
}

// simulate fills in the model's results for sp.
func (sp *Space) simulate(m Model, workers []int) {
	costs := sp.seconds()
	sp.Start, sp.Sim = m.Start, nil
	sp.Work, _ = workOf(costs)
	for _, w := range workers {
		sp.Sim = append(sp.Sim, m.Simulate(costs, w))
	}
	sp.CoordLimit, sp.MergeLimit, sp.LongestLimit = m.Limits(costs)
}

// simLine sums up the simulated times of sp.
func (sp *Space) simLine() string {
	var parts []string
	for _, s := range sp.Sim {
		parts = append(parts, fmt.Sprintf("%d workers %.3fs", s.Workers, s.Time))
	}
	return strings.Join(parts, ", ")
}

// median is the lower median of xs (0 if empty).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[(len(s)-1)/2]
}
