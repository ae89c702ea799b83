package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/period-dev/period/internal/bench"
	"github.com/period-dev/period/rt"
	"github.com/period-dev/period/strategy"
)

// cmdBench runs period bench: every strategy on every annotated benchmark
// test, written up as tables and figures (see internal/bench).
func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("period bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	strategies := fs.String("strategies", strings.Join(benchStrategies(), ","), "comma-separated strategy `names`")
	budget := fs.Int("budget", 10000, "schedules per test, strategy and seed")
	seeds := fs.Int("seeds", 3, "seeds per randomized strategy (seed-independent strategies run once)")
	bound := fs.Int("bound", 0, "strategy bound (0: each strategy's default)")
	out := fs.String("o", "", "output `dir` (default: docs of the Period repository)")
	run := fs.String("run", "", "benchmark only tests matching `regexp`")
	cont := fs.Bool("continue", true, "explore the whole budget after the first bug, to count buggy schedules (false: stop at the first bug)")
	timeout := fs.Duration("timeout", 10*time.Minute, "give up on one test's exploration after `d`")
	steps := fs.Int("steps", defaultSteps, stepsUsage)
	early := fs.Duration("early-timers", rt.DefaultEarlyTimers, "as period test -early-timers")
	render := fs.String("render", "", "do not run: write the tables and figures again from `results.json`")
	scaling := fs.Bool("scaling", false, "also explore each test with -p 1 and -p 2 (random, pct, ppct) and simulate exhausting the largest bounded spaces with 1, 16 and 256 workers")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: period bench [flags] [packages]  (default packages: ./bench/... of the Period repository)\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitError
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	cwd, _ := os.Getwd()
	dir, patterns := cwd, fs.Args()
	if len(patterns) == 0 || *out == "" {
		root, err := repoRoot(cwd)
		if err != nil {
			return fail(fmt.Errorf("%v: give the packages and -o", err))
		}
		if len(patterns) == 0 {
			dir, patterns = root, []string{"./bench/..."}
		}
		if *out == "" {
			*out = filepath.Join(root, "docs")
		}
	}
	var res *bench.Results
	if *render != "" {
		r, err := bench.ReadJSON(*render)
		if err != nil {
			return fail(err)
		}
		if r.Scaling != nil {
			r.Scaling.Simulate() // the model's results follow the model, from what was measured
		}
		res = r
	} else {
		names := strings.Split(*strategies, ",")
		for _, n := range names {
			if n == "native" {
				continue
			}
			if _, err := strategy.New(n, strategy.Options{}); err != nil {
				return fail(err)
			}
		}
		if *budget < 1 {
			return fail(errors.New("-budget must be at least 1"))
		}
		opts := bench.Options{Dir: dir, Patterns: patterns, Strategies: names, Budget: *budget, Seeds: *seeds, Bound: *bound,
			Run: *run, Continue: *cont, Timeout: *timeout, MaxSteps: *steps, EarlyTimers: *early, Scaling: *scaling,
			Command:  strings.Join(append([]string{"period", "bench"}, args...), " "),
			Progress: func(format string, args ...any) { fmt.Fprintf(stderr, "bench: "+format+"\n", args...) }}
		r, err := bench.Run(ctx, opts)
		if r == nil {
			return fail(err)
		}
		if err != nil {
			fmt.Fprintf(stderr, "period: %v; writing the results measured so far\n", err)
		}
		res = r
	}
	files, err := bench.WriteAll(*out, res)
	for _, f := range files {
		fmt.Fprintf(stdout, "wrote %s\n", f)
	}
	if err != nil {
		return fail(err)
	}
	if sc := res.Scaling; sc != nil && sc.Differ > 0 {
		// -p must not change what is found: a defect of Period, not noise.
		return fail(fmt.Errorf("-p 2 did not reproduce -p 1 on %d explorations (see the scaling section of results.md)", sc.Differ))
	}
	return exitOK
}

// benchStrategies is the default of -strategies: every registered strategy,
// PERIOD and its serialized variant first, and the native baseline last.
func benchStrategies() []string {
	first := []string{"period", "period-serial"}
	var out []string
	for _, n := range first {
		if _, err := strategy.New(n, strategy.Options{}); err == nil {
			out = append(out, n)
		}
	}
	for _, n := range strategy.Names() {
		if !slices.Contains(first, n) {
			out = append(out, n)
		}
	}
	return append(out, "native")
}

// repoRoot finds the Period repository around dir: the nearest directory
// up the tree with bench/go.mod.
func repoRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "bench", "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no Period repository (a directory with bench/go.mod) above %s", dir)
		}
	}
}
