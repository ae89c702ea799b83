package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/period-dev/period/internal/report"
	"github.com/period-dev/period/internal/runner"
	"github.com/period-dev/period/rt"
	"github.com/period-dev/period/trace"
)

// VerifyResult is the last object period verify -json prints: the verdict
// on the bug of a replay file, after the summaries of the runs it made.
type VerifyResult struct {
	Action   string // "verify"
	Package  string
	Test     string
	Replay   string // the replay file verified
	Verdict  string // "fixed", "still fails", or "inconclusive" (no verdict: exit 2)
	Same     bool   // the bug found now is the recorded one (kind and location)
	Exact    bool   // the recorded schedule itself still ends in the bug
	Diverged string `json:",omitempty"` // why the recorded schedule no longer applies
	Kind     string // the recorded bug
	Location string
	// The exploration run again (empty when the recorded schedule decided).
	Strategy  string
	Seed      int64
	Bound     int
	Budget    int
	Schedules int
	Exhausted bool             `json:",omitempty"`
	Bugs      []report.JSONBug // found now; their replay files are new
}

// cmdVerify is period verify: after an edit, is the bug of a replay file
// fixed? The recorded schedule is tried first; a record that no longer
// applies to the source (the usual case after a fix) is no error: the
// exploration that found the bug runs again with the recorded strategy,
// seed, bound, budget and flags.
func cmdVerify(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("period verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print one JSON object per line, the verdict last")
	verbose := fs.Bool("v", false, "print progress and full interleavings")
	budget := fs.Int("budget", 0, "explore at most `n` schedules (default: the recorded budget, or 1000 for files that record none)")
	out := fs.String("o", filepath.Join(os.TempDir(), "period"), "write the replay files of bugs found to `dir`")
	minimize := fs.Bool("minimize", true, "shrink the schedule of a bug found before reporting it")
	minBudget := fs.Int("minimize-budget", defaultMinimizeBudget, "run at most `n` candidate schedules per minimisation")
	timeout := fs.Duration("timeout", 10*time.Minute, "give up after `d`")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: period verify [-json] [-v] [-budget n] [-o dir] FILE\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitError
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: period verify [-json] [-v] [-budget n] [-o dir] FILE")
		return exitError
	}
	outDir, err := filepath.Abs(*out)
	if err == nil {
		err = os.MkdirAll(outDir, 0o755)
	}
	if err != nil {
		fmt.Fprintf(stderr, "period: -o: %v\n", err)
		return exitError
	}
	target, err := openReplay(ctx, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	defer target.close()
	file, tr, bin := target.file, target.trace, target.binary
	p := &report.Printer{W: stdout, JSON: *jsonOut, Verbose: *verbose, Live: stderr}
	if *jsonOut {
		p.Live = stdout
	}
	v := VerifyResult{Action: "verify", Package: tr.Package, Test: tr.Test, Replay: file, Kind: tr.Kind, Location: tr.Location, Bugs: []report.JSONBug{}}
	if !*jsonOut {
		fmt.Fprintf(stdout, "verify %s: the %s at %s recorded in %s\n", tr.Test, tr.Kind, orUnknown(tr.Location), file)
	}

	// The recorded schedule first: if it still ends in the bug, that is
	// the answer, and the shortest one.
	cfg := rt.Config{Replay: file, Strategy: tr.Strategy, Seed: tr.Seed, Bound: tr.Bound, OutDir: target.work, MaxSteps: len(tr.Entries) + 1000,
		NoRace: tr.NoRace, Leaks: tr.Leaks, IgnoreLeak: tr.IgnoreLeak, Selection: tr.Selection, Prelude: runner.TestsBefore(bin.Tests, tr.Selection, tr.Test), Args: tr.Args}
	rs, err := runner.Run(ctx, bin, runner.Options{Config: cfg, Timeout: *timeout})
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	exact, found := verifyReplay(rs, tr)
	if !found {
		fmt.Fprintf(stderr, "period: %s has no test %s any more\n", tr.Package, tr.Test)
		return exitError
	}
	if exact.Diverged == "" && sameBug(exact.Bugs, tr) {
		v.Verdict, v.Same, v.Exact = "still fails", true, true
		s := report.Summary(exact, target.uninstrumented)
		for i := range s.Bugs {
			s.Bugs[i].Replay = file
		}
		v.Bugs = s.Bugs
		p.Result(s)
		return v.print(stdout, *jsonOut, fmt.Sprintf("still fails: the recorded schedule still ends in the %s at %s", tr.Kind, orUnknown(tr.Location)))
	}
	v.Diverged = exact.Diverged
	if v.Diverged == "" {
		v.Diverged = "the recorded schedule runs to its end without the bug"
	}
	if *jsonOut {
		s := report.Summary(exact, target.uninstrumented)
		for i := range s.Bugs {
			s.Bugs[i].Replay = file
		}
		p.Result(s)
	}

	// Then the exploration that found it.
	v.Strategy, v.Seed, v.Bound, v.Budget = tr.Strategy, tr.Seed, tr.Bound, tr.Budget
	if v.Budget <= 0 {
		v.Budget = max(1000, tr.Schedule) // period test's default
	}
	if *budget > 0 {
		v.Budget = *budget
	}
	leaks := tr.Leaks
	if leaks == "" {
		leaks = "all"
	}
	cfg = rt.Config{Run: "^" + regexp.QuoteMeta(tr.Test) + "$", Strategy: tr.Strategy, Seed: tr.Seed, Bound: tr.Bound, Budget: v.Budget,
		Focus: tr.Focus, MaxSteps: tr.Steps, AdaptiveSteps: tr.Steps == 0, OutDir: outDir, NoRace: tr.NoRace, Parallel: tr.Parallel,
		Leaks: leaks, IgnoreLeak: tr.IgnoreLeak, Short: tr.Short, Tags: tr.Tags, Args: tr.Args, Instrument: tr.Instrument, Uninstrumented: tr.Uninstrumented,
		EarlyTimers: tr.EarlyTimers, TimersWhenBlocked: tr.TimersWhenBlocked, Selection: tr.Selection}
	if cfg.AdaptiveSteps {
		cfg.MaxSteps = defaultSteps
	}
	if !*jsonOut {
		fmt.Fprintf(stdout, "the recorded schedule no longer applies: %s\n", v.Diverged)
		for _, l := range report.DivergedSources(tr, v.Diverged) {
			fmt.Fprintf(stdout, "  %s\n", l)
		}
		fmt.Fprintf(stdout, "exploring again: %s, up to %d schedules\n", exploration(tr.Strategy, tr.Seed, tr.Bound), v.Budget)
	}
	rs, err = runner.Run(ctx, bin, runner.Options{Config: cfg, Timeout: *timeout, Confirm: true, Progress: func(format string, args ...any) {
		p.Event("progress", tr.Package, format, args...)
	}})
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	r, found := verifyReplay(rs, tr)
	if !found {
		fmt.Fprintf(stderr, "period: %s has no test %s any more\n", tr.Package, tr.Test)
		return exitError
	}
	s := report.Summary(r, target.uninstrumented)
	if *minimize {
		ss := []report.JSONSummary{s}
		minimizeBugs(ctx, bin, ss, *minBudget, runner.Options{Config: cfg}, p)
		s = ss[0]
	}
	p.Result(s)
	v.Schedules, v.Exhausted, v.Bugs = s.Schedules, s.Exhausted, s.Bugs
	switch {
	case s.Interrupted:
		v.Verdict = "inconclusive"
		return v.print(stdout, *jsonOut, fmt.Sprintf("inconclusive: interrupted after %d schedules", s.Schedules))
	case len(s.Bugs) > 0:
		v.Verdict = "still fails"
		for _, b := range s.Bugs {
			if b.Kind == tr.Kind && b.Location == tr.Location {
				v.Same = true
				return v.print(stdout, *jsonOut, fmt.Sprintf("still fails: the same %s at %s (schedule %d of %s); replay: period replay %s",
					b.Kind, orUnknown(b.Location), b.Schedule, exploration(tr.Strategy, tr.Seed, tr.Bound), b.Replay))
			}
		}
		b := s.Bugs[0]
		return v.print(stdout, *jsonOut, fmt.Sprintf("still fails: a different bug, a %s at %s (schedule %d of %s; the recorded %s at %s was not found); replay: period replay %s",
			b.Kind, orUnknown(b.Location), b.Schedule, exploration(tr.Strategy, tr.Seed, tr.Bound), tr.Kind, orUnknown(tr.Location), b.Replay))
	case s.TimedOut:
		v.Verdict = "inconclusive"
		return v.print(stdout, *jsonOut, fmt.Sprintf("inconclusive: no bug in %d schedules, but -timeout ended the exploration before its budget of %d", s.Schedules, v.Budget))
	case s.Abandoned > 0 || s.Cut > 0 && s.Cut >= s.Schedules:
		v.Verdict = "inconclusive"
		return v.print(stdout, *jsonOut, fmt.Sprintf("inconclusive: no bug in %d schedules, but the exploration stopped without a verdict (see the notes above)", s.Schedules))
	}
	v.Verdict = "fixed"
	extra := ""
	if s.Exhausted {
		extra = ", every schedule within the bound explored"
	}
	return v.print(stdout, *jsonOut, fmt.Sprintf("fixed: no bug in %d schedules of %s%s", s.Schedules, exploration(tr.Strategy, tr.Seed, tr.Bound), extra))
}

// print writes the verdict (the JSON object, or line) and returns the
// exit status: 0 fixed, 1 still fails, 2 no verdict.
func (v VerifyResult) print(w io.Writer, asJSON bool, line string) int {
	if asJSON {
		b, _ := json.Marshal(v)
		fmt.Fprintln(w, string(b))
	} else {
		fmt.Fprintln(w, line)
	}
	switch v.Verdict {
	case "fixed":
		return exitOK
	case "still fails":
		return exitBug
	}
	return exitError
}

// verifyReplay picks the result of the replay's test.
func verifyReplay(rs []runner.Result, tr *trace.Trace) (runner.Result, bool) {
	for _, r := range rs {
		if r.Test == tr.Test {
			return r, true
		}
	}
	return runner.Result{}, false
}

// sameBug tells whether bugs hold the recorded one (kind and location).
func sameBug(bugs []rt.BugReport, tr *trace.Trace) bool {
	for _, b := range bugs {
		if b.Kind == tr.Kind && b.Location == tr.Location {
			return true
		}
	}
	return false
}

// exploration names a strategy run as the verdict lines do.
func exploration(strategy string, seed int64, bound int) string {
	if bound > 0 {
		return fmt.Sprintf("%s seed %d bound %d", strategy, seed, bound)
	}
	return fmt.Sprintf("%s seed %d", strategy, seed)
}

func orUnknown(loc string) string {
	if loc == "" {
		return "unknown location"
	}
	return loc
}
