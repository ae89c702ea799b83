// Command period runs ordinary Go tests under controlled goroutine schedules,
// finds the interleavings that break them, and replays them.
//
//	period test [flags] [packages]   explore the tests of packages
//	period replay [-json] [-v] FILE  re-run the schedule recorded in FILE
//	period minimize FILE             shrink the schedule of FILE (writes FILE.min)
//	period view FILE                 write FILE's schedule as an HTML timeline
//	period verify FILE               after a fix: does FILE's bug still happen?
//	period strategies                list the exploration strategies
//	period merge DIR...              combine the results of period test -shard
//
// Exit status: 0 no bug found, 1 a bug found (replay: the failure
// reproduced), 2 Period could not do its job.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/period-dev/period/instrument"
	"github.com/period-dev/period/internal/report"
	"github.com/period-dev/period/internal/runner"
	"github.com/period-dev/period/rt"
	"github.com/period-dev/period/strategy"
)

// defaultSteps bounds one schedule before it is reported as a hang: high
// enough for a correct loop of 100k mutex-protected increments.
const (
	defaultSteps = 1000000
	stepsUsage   = "report a hang when one schedule exceeds `n` steps (default: derived from the test's first schedule, at least 1000000)"
)

const (
	exitOK    = 0
	exitBug   = 1
	exitError = 2
)

const usage = `Period runs Go tests under controlled goroutine schedules.

Usage:
	period test [flags] [packages]
	period replay [-json] [-v] FILE
	period minimize [-budget n] [-json] [-v] FILE
	period view [-o file.html] FILE
	period verify [-json] [-v] [-budget n] [-o DIR] FILE
	period strategies
	period bench [flags] [packages]
	period merge [-json] [-v] [-o DIR] DIR...
	period clean -cache

Run "period test -h" for the flags of test.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitError
	}
	// SIGTERM as Ctrl-C: a run under timeout(1) or a CI job's time limit
	// stops cleanly and prints the summary so far.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch args[0] {
	case "test":
		return cmdTest(ctx, args[1:], stdout, stderr)
	case "replay":
		return cmdReplay(ctx, args[1:], stdout, stderr)
	case "minimize", "minimise":
		return cmdMinimize(ctx, args[1:], stdout, stderr)
	case "view":
		return cmdView(args[1:], stdout, stderr)
	case "verify":
		return cmdVerify(ctx, args[1:], stdout, stderr)
	case "bench":
		return cmdBench(ctx, args[1:], stdout, stderr)
	case "merge":
		return cmdMerge(args[1:], stdout, stderr)
	case "clean":
		return cmdClean(args[1:], stdout, stderr)
	case "strategies":
		for _, n := range strategy.Names() {
			fmt.Fprintln(stdout, n)
		}
		fmt.Fprintln(stdout, "native")
		return exitOK
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "period: unknown command %q\n%s", args[0], usage)
	return exitError
}

// cmdClean removes Period's binary cache (go clean -cache removes Go's).
func cmdClean(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("period clean", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cache := fs.Bool("cache", false, "remove the cache of instrumented test binaries ($"+instrument.BinCacheEnv+", default period/ under the user cache directory)")
	if err := fs.Parse(args); err != nil {
		return exitError
	}
	if !*cache || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: period clean -cache")
		return exitError
	}
	dir, err := instrument.DefaultBinCache()
	if err == nil {
		err = instrument.CleanBinCache(dir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "period clean: %v\n", err)
		return exitError
	}
	return exitOK
}

// testFlags are the flags of period test.
type testFlags struct {
	run, strategy, out, focus string
	budget, bound, steps      int
	seed                      int64
	cont, json, verbose, race bool
	parallel, fresh, short    bool
	procs                     int
	shard, resume, timers     string
	leaks, tags, instrument   string
	ignoreLeak, uninstr       stringList
	minimize                  bool
	html                      string
	minimizeBudget            int
	timeout, earlyTimers      time.Duration
}

func defaultStrategy() string {
	for _, n := range strategy.Names() {
		if n == "period" {
			return n
		}
	}
	return "random"
}

func cmdTest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("period test", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f testFlags
	fs.StringVar(&f.run, "run", "", "explore only tests matching `regexp`")
	fs.StringVar(&f.strategy, "strategy", defaultStrategy(), "exploration `name` (see period strategies)")
	fs.IntVar(&f.budget, "budget", 1000, "schedules per test, at most")
	fs.Int64Var(&f.seed, "seed", 1, "seed of randomized strategies")
	fs.IntVar(&f.bound, "bound", 0, "strategy bound: periods, preemptions, delays, depth... (0: the strategy's default)")
	fs.BoolVar(&f.cont, "continue", false, "keep exploring after a bug; report each distinct bug once")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "give up on a package after `d`")
	fs.BoolVar(&f.json, "json", false, "print one JSON object per line")
	fs.BoolVar(&f.race, "race", true, "report data races between key points (-race=false: off)")
	fs.BoolVar(&f.parallel, "parallel", false, "period: run the last period truly in parallel, key points in the order they happen (runs are reproduced by their replay files, not by -seed)")
	fs.BoolVar(&f.verbose, "v", false, "print progress and full interleavings")
	fs.StringVar(&f.out, "o", filepath.Join(os.TempDir(), "period"), "write replay files to `dir`")
	fs.IntVar(&f.steps, "steps", defaultSteps, stepsUsage)
	fs.BoolVar(&f.fresh, "fresh", false, "run every schedule in a new test process, where the test runs for the first time (for suites that are not re-runnable in one process; slower)")
	fs.StringVar(&f.leaks, "leaks", "all", "which goroutines left running when a test returns are reported: `all` (but those parked on a channel a package-level variable still reaches), blocked (not those still woken by timers either), off, any (all, even those a package-level variable reaches)")
	fs.Var(&f.ignoreLeak, "ignore-leak", "do not report a left goroutine with function `name` on its stack or created by it (repeatable; as goleak.IgnoreAnyFunction)")
	fs.BoolVar(&f.minimize, "minimize", true, "shrink every bug's schedule before reporting it (fewest switches, steps, goroutines) and write NAME.min.period beside its replay file")
	fs.StringVar(&f.html, "html", "", "write a self-contained HTML timeline of every bug's schedule into `dir`")
	fs.IntVar(&f.minimizeBudget, "minimize-budget", defaultMinimizeBudget, "run at most `n` candidate schedules per minimisation")
	fs.BoolVar(&f.short, "short", false, "tell long-running tests to shorten their run time (testing.Short(), as go test -short)")
	fs.StringVar(&f.tags, "tags", "", "build with the comma-separated build `tags` (as go test -tags)")
	fs.StringVar(&f.instrument, "instrument", "all", "which packages of other modules are instrumented: `all` (every one but the standard library's), module (the main module's only), or comma-separated import path patterns (path/...)")
	fs.Var(&f.uninstr, "uninstrumented", "leave the packages matching import path `pattern` uncontrolled (repeatable)")
	fs.StringVar(&f.timers, "timers", "early", "when timers, sleeps and deadlines fire: `early` (as the virtual clock passes with steps, and at once when set at most -early-timers ahead) or blocked (only when no goroutine can run but pollers)")
	fs.DurationVar(&f.earlyTimers, "early-timers", rt.DefaultEarlyTimers, "let timers, sleeps and deadlines set at most `d` ahead fire as soon as they are set, a choice each schedule makes (0: they fire when the virtual clock reaches them)")
	fs.StringVar(&f.focus, "focus", "", "pedal: restrict preemptions to key points whose site contains `s`")
	fs.IntVar(&f.procs, "p", runtime.GOMAXPROCS(0), "explore with up to `n` processes at once: packages and tests in parallel, and the schedules of one test split over n processes for random, pct and ppct (same results as -p 1)")
	fs.StringVar(&f.resume, "resume", "", "save each test's exploration in `dir` as it goes, and continue from what dir holds (random, pct, ppct; same flags, the budget may grow)")
	fs.StringVar(&f.shard, "shard", "", "explore only shard `i/n` of the tests (1 <= i <= n) and write DIR/period-shard-i-of-n.jsonl into the -o DIR for period merge")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: period test [flags] [packages] [-args test binary arguments]\n")
		fs.PrintDefaults()
	}
	// As go test: what follows -args goes to the test binary unchanged.
	var testArgs []string
	if i := slices.Index(args, "-args"); i >= 0 {
		args, testArgs = args[:i], args[i+1:]
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitError
	}
	for _, a := range testArgs {
		if strings.HasPrefix(strings.TrimLeft(a, "-"), "test.") && strings.HasPrefix(a, "-") {
			fmt.Fprintf(stderr, "period: -args %s: period sets the test binary's -test. flags itself (use period test's own: -run, -short, -timeout)\n", a)
			return exitError
		}
	}
	if f.timers != "early" && f.timers != "blocked" {
		fmt.Fprintf(stderr, "period: -timers=%s: want early or blocked\n", f.timers)
		return exitError
	}
	switch f.leaks {
	case "all", "blocked", "off", "any":
	default:
		fmt.Fprintf(stderr, "period: -leaks=%s: want all, blocked, off or any\n", f.leaks)
		return exitError
	}
	if f.budget < 1 {
		fmt.Fprintln(stderr, "period: -budget must be at least 1")
		return exitError
	}
	if f.strategy != "native" {
		st, err := strategy.New(f.strategy, strategy.Options{})
		if err != nil {
			fmt.Fprintf(stderr, "period: %v\n", err)
			return exitError
		}
		if _, ok := st.(strategy.Releaser); f.parallel && !ok {
			fmt.Fprintf(stderr, "period: -parallel: strategy %s has no uncontrolled part to run in parallel (use -strategy period)\n", f.strategy)
			return exitError
		}
	} else if f.parallel {
		fmt.Fprintln(stderr, "period: -parallel: strategy native runs uncontrolled already")
		return exitError
	}
	out, err := filepath.Abs(f.out)
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	cfg := rt.Config{Run: f.run, Selection: f.run, Strategy: f.strategy, Seed: f.seed, Bound: f.bound, Budget: f.budget, Continue: f.cont,
		Focus: f.focus, MaxSteps: f.steps, AdaptiveSteps: !flagSet(fs, "steps"), OutDir: out, NoRace: !f.race, Parallel: f.parallel,
		Leaks: f.leaks, IgnoreLeak: f.ignoreLeak, Short: f.short, Tags: f.tags, Uninstrumented: f.uninstr, EarlyTimers: f.earlyTimers,
		TimersWhenBlocked: f.timers == "blocked", Args: testArgs}
	if f.instrument != "all" {
		cfg.Instrument = f.instrument
	}
	// Progress is shown as it happens, whatever -p holds back: with -json as
	// "progress" lines on stdout (one writer for all packages), without it
	// as lines on stderr.
	locked := &report.LockedWriter{W: stdout}
	p := &report.Printer{W: locked, JSON: f.json, Verbose: f.verbose, Live: &report.LockedWriter{W: stderr}}
	if f.json {
		p.Live = locked
	}
	if f.fresh && f.parallel {
		fmt.Fprintln(stderr, "period: -fresh and -parallel cannot be combined")
		return exitError
	}
	par, err := newParallelism(f.procs, f.shard)
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	if par.resume, err = par.resumeDir(f.resume, cfg); err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	if par.resume != "" && f.fresh {
		fmt.Fprintln(stderr, "period: -resume and -fresh cannot be combined")
		return exitError
	}
	minBudget := 0
	if f.minimize {
		minBudget = f.minimizeBudget
	}
	html := ""
	if f.html != "" {
		if html, err = filepath.Abs(f.html); err == nil {
			err = os.MkdirAll(html, 0o755)
		}
		if err != nil {
			fmt.Fprintf(stderr, "period: -html: %v\n", err)
			return exitError
		}
	}
	cache, err := instrument.DefaultBinCache()
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	prep := instrument.PrepareOptions{Tags: cfg.Tags, Instrument: cfg.Instrument, Uninstrumented: cfg.Uninstrumented, BinCache: cache}
	return testPackages(ctx, fs.Args(), prep, cfg, f.timeout, f.fresh, minBudget, html, p, stderr, par)
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// flagSet tells whether the command line set the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// heartbeatEvery is how often a long preparation or build says it is
// still under way, as exploration's progress lines do.
var heartbeatEvery = 5 * time.Second

// heartbeat reports every heartbeatEvery that what is still under way,
// until the returned function is called: loading, instrumenting and
// building a large package (go-elasticsearch's typedapi, 2,000 files of
// types: minutes) is never silent.
func heartbeat(p *report.Printer, pkg, what string) (stop func()) {
	start := time.Now()
	tick := time.NewTicker(heartbeatEvery)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				p.Event("progress", pkg, "%s: %s so far", what, time.Since(start).Round(time.Second))
			}
		}
	}()
	return func() {
		tick.Stop()
		close(done)
		<-finished
	}
}

// testPackages prepares, builds and explores each package.
// minBudget > 0 minimises every bug's schedule with at most that many candidates.
// html != "" writes a timeline page of every bug there.
func testPackages(ctx context.Context, patterns []string, prep instrument.PrepareOptions, cfg rt.Config, timeout time.Duration, fresh bool, minBudget int, html string, p *report.Printer, stderr io.Writer, par *parallelism) int {
	work, err := os.MkdirTemp("", "period-build-")
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	defer os.RemoveAll(work)
	cwd, _ := os.Getwd()
	start := time.Now()
	prep.Dir, prep.Patterns, prep.WorkDir = cwd, patterns, filepath.Join(work, "src")
	stop := heartbeat(p, "", "loading and instrumenting "+strings.Join(patterns, " "))
	pkgs, err := instrument.Prepare(prep)
	stop()
	if err != nil && ctx.Err() != nil {
		// The signal stopped the go command too: what it left unloaded
		// is no finding about the packages ("matched no packages").
		fmt.Fprintf(stderr, "period: interrupted while loading and instrumenting %s (after %s)\n", strings.Join(patterns, " "), time.Since(start).Round(time.Second))
		return exitError
	}
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	if len(pkgs) == 0 {
		// As go test's "[no test files]": nothing to explore is no error
		// (period test ./... over a module with tests in some packages
		// only, or none).
		fmt.Fprintln(stderr, "period: no test functions in the given packages")
		return exitOK
	}
	p.Event("prepare", "", "instrumented %d package(s) in %.2fs", len(pkgs), time.Since(start).Seconds())
	if pkgs, err = par.selectShard(pkgs, cfg.Run); err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	status := par.forEach(ctx, pkgs, p, func(i int, pkg *instrument.TestPackage, p *report.Printer) int {
		if pkg.LoadError != "" {
			fmt.Fprintf(stderr, "period: %s does not compile (go test fails it too); the other packages are explored:\n%s\n", pkg.ImportPath, pkg.LoadError)
			return exitError
		}
		// One directory a package, as go test's: the binary has the name
		// go test gives it.
		bin := filepath.Join(work, fmt.Sprintf("pkg%d", i), pkg.BinaryName())
		if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
			fmt.Fprintf(stderr, "period: %v\n", err)
			return exitError
		}
		t0 := time.Now()
		stop := heartbeat(p, pkg.ImportPath, "building "+pkg.ImportPath+" (instrumented)")
		err := par.build(ctx, pkg, bin)
		stop()
		// After the build: a dependency whose instrumented copy did not
		// compile is built as it is, and noted.
		for _, n := range pkg.Notes {
			p.Event("note", pkg.ImportPath, "%s: %s", n.Pos, n.Msg)
		}
		if len(pkg.Uninstrumented) > 0 {
			p.Event("note", pkg.ImportPath, "%s: uncontrolled (not instrumented) dependencies: %s", pkg.ImportPath, strings.Join(pkg.Uninstrumented, ", "))
		}
		if err != nil {
			fmt.Fprintf(stderr, "period: %v\n", err)
			return exitError
		}
		p.Event("build", pkg.ImportPath, "built %s in %.2fs", pkg.ImportPath, time.Since(t0).Seconds())
		t0 = time.Now()
		results, err := runner.Run(ctx, runner.Binary{Path: bin, Dir: pkg.Dir, Package: pkg.ImportPath, Tests: pkg.Tests},
			runner.Options{Config: cfg, Timeout: timeout, Confirm: true, Fresh: fresh, Pool: par.pool, Workers: par.p, Resume: par.resume, Progress: func(format string, args ...any) {
				p.Event("progress", pkg.ImportPath, format, args...)
			}})
		if errors.Is(err, runner.ErrTestsNotRun) {
			// As go test reports it: ok, nothing was tested.
			p.Event("note", pkg.ImportPath, "%s: %v; nothing explored", pkg.ImportPath, err)
			p.Package(pkg.ImportPath, 0, time.Since(t0).Seconds())
			return exitOK
		}
		if err != nil {
			fmt.Fprintf(stderr, "period: %s: %v\n", pkg.ImportPath, err)
			return exitError
		}
		if len(results) == 0 && ctx.Err() == nil {
			// As go test says it: -run selected none of the package's tests.
			p.Event("note", pkg.ImportPath, "%s: no tests to run", pkg.ImportPath)
		}
		bugs := 0
		binary := runner.Binary{Path: bin, Dir: pkg.Dir, Package: pkg.ImportPath, Tests: pkg.Tests}
		sums := make([]report.JSONSummary, len(results))
		for i, r := range results {
			sums[i] = report.Summary(r, pkg.Uninstrumented)
		}
		if minBudget > 0 && ctx.Err() == nil {
			minimizeBugs(ctx, binary, sums, minBudget, runner.Options{Config: cfg}, p)
		}
		for i, r := range results {
			s := sums[i]
			if html != "" {
				writeViews(html, &s, p)
			}
			p.Result(s)
			par.record(s)
			bugs += len(r.Bugs)
		}
		p.Package(pkg.ImportPath, bugs, time.Since(t0).Seconds())
		if bugs > 0 {
			return exitBug
		}
		return exitOK
	})
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "period: interrupted")
		return exitError
	}
	if status == exitError {
		return status
	}
	if err := par.writeShard(cfg.OutDir); err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	return status
}

func cmdReplay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("period replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print the summary as JSON")
	verbose := fs.Bool("v", false, "print the full interleaving")
	timeout := fs.Duration("timeout", 10*time.Minute, "give up after `d`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitError
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: period replay [-json] [-v] FILE")
		return exitError
	}
	target, err := openReplay(ctx, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	defer target.close()
	file, tr, work, binary, uninstrumented := target.file, target.trace, target.work, target.binary, target.uninstrumented
	// The tests go test runs before it first, as the confirmation ran
	// them: caches they fill decide which key points the test reaches.
	cfg := rt.Config{Replay: file, Strategy: tr.Strategy, Seed: tr.Seed, Bound: tr.Bound, OutDir: work, MaxSteps: len(tr.Entries) + 1000,
		Selection: tr.Selection, Prelude: runner.TestsBefore(binary.Tests, tr.Selection, tr.Test), Args: tr.Args}
	results, err := runner.Run(ctx, binary, runner.Options{Config: cfg, Timeout: *timeout})
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	p := &report.Printer{W: stdout, JSON: *jsonOut, Verbose: *verbose}
	status := exitOK
	for _, r := range results {
		s := report.Summary(r, uninstrumented)
		for i := range s.Bugs {
			s.Bugs[i].Replay = file
		}
		p.Result(s)
		if s.Diverged != "" && !*jsonOut {
			for _, l := range report.DivergedSources(tr, s.Diverged) {
				fmt.Fprintf(stdout, "      %s\n", l)
			}
		}
		if len(s.Bugs) > 0 && s.Diverged == "" {
			status = exitBug
		}
	}
	if !*jsonOut {
		if status == exitBug {
			fmt.Fprintf(stdout, "reproduced: %s (%s) with the recorded interleaving\n", tr.Kind, tr.Location)
		} else {
			fmt.Fprintf(stdout, "NOT reproduced: the recorded %s did not happen\n", tr.Kind)
		}
	}
	return status
}
