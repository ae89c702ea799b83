// Package bench measures exploration strategies on annotated benchmark
// programs: every test function whose doc carries a `// period:want KIND`
// line is explored by every strategy (and seed), and the results become a
// JSON record, a CSV file, markdown tables in the style of the PERIOD paper's
// Tables 1 and 2, and SVG figures (bugs found against schedules; overhead).
//
// What is measured. Each trial explores one test with one strategy and seed
// for at most Budget schedules, with data-race detection off (so that races,
// which the benchmarks have on purpose, are not the bug that gets counted),
// except in tests that want a race. The wanted bug is the first bug of the
// wanted kind: the schedule it was found in is "schedules to first bug".
// With Continue (the default) the exploration goes on after a bug, so that
// the schedules that hit the wanted bug can be counted (Buggy); strategies
// are deterministic given their seed and the runs they observed, so the
// schedule of the first bug is the one an exploration that stopped there
// would report. Without Continue a trial stops at its first bug of any kind.
package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/period-dev/period/instrument"
	"github.com/period-dev/period/internal/runner"
	"github.com/period-dev/period/rt"
)

// SeedFree lists the strategies whose exploration does not depend on the
// seed: they draw no random numbers (dfs, ipb, idb and pedal are tree
// searches, period-serial serializes its last period by thread id; see the
// strategy files). They run once per test whatever Options.Seeds says.
// period (parallel) is not among them: it orders its last period with a
// PRNG seeded by the seed.
var SeedFree = map[string]bool{"dfs": true, "ipb": true, "idb": true, "pedal": true, "period-serial": true}

// Options configure a benchmark run.
type Options struct {
	Dir        string   // directory the patterns are relative to
	Patterns   []string // packages, as for period test
	Strategies []string // strategy names; "native" runs the tests uncontrolled
	Budget     int      // schedules per trial
	Seeds      int      // seeds 1..Seeds for the strategies not in SeedFree
	Bound      int      // strategy bound (0: each strategy's default)
	Run        string   // regexp selecting tests
	Continue   bool     // explore the whole budget to count buggy schedules
	Timeout    time.Duration
	MaxSteps   int // steps per schedule before a hang is reported
	// EarlyTimers is period test's -early-timers (rt.Config.EarlyTimers).
	EarlyTimers time.Duration
	Command     string // the command line, recorded in the results
	Progress    func(format string, args ...any)
	// Scaling adds period bench -scaling's measurements (scaling.go).
	Scaling bool
}

// Results is everything a benchmark run measured.
type Results struct {
	Command    string
	Date       string // RFC 3339
	GoVersion  string
	Platform   string // GOOS/GOARCH
	CPUs       int
	Budget     int
	Seeds      int
	Bound      int
	Continue   bool
	Races      string  // how data races were treated
	Wall       float64 // seconds, the whole run including builds
	Load       string  `json:",omitempty"` // /proc/loadavg (1, 5, 15 min) at the start and at the end: other work on the machine
	Strategies []string
	Tests      []Test
	Cells      []Cell   // one per test and strategy, tests in order, then strategies in order
	Scaling    *Scaling `json:",omitempty"` // with -scaling
}

// Test is one benchmark test function and the bug it wants.
type Test struct {
	Package string // import path
	Name    string
	Want    string // fail, panic, deadlock, leak, hang, race, or none (a correct test)
}

// Cell is what one strategy did on one test.
type Cell struct {
	Package  string
	Test     string
	Want     string
	Strategy string
	Trials   []Trial
}

// Trial is one exploration of one test by one strategy with one seed.
type Trial struct {
	Seed         int64
	Found        bool     // a bug of the wanted kind was found
	First        int      `json:",omitempty"` // schedule of the first bug of the wanted kind
	FirstAny     int      `json:",omitempty"` // schedule of the first bug of any kind
	FirstAnyKind string   `json:",omitempty"`
	Kinds        []string `json:",omitempty"` // distinct kinds reported
	Schedules    int      // schedules explored
	Buggy        int      // schedules that hit a bug of the wanted kind (any bug for "none")
	Exhausted    bool     `json:",omitempty"` // the strategy explored its whole (bounded) space
	Elapsed      float64  // seconds spent exploring, inside the test process
	Wall         float64  // seconds, the test process(es) included
	Crashes      int      `json:",omitempty"` // schedules that killed the test process
	Error        string   `json:",omitempty"`
	// Costs are the seconds each schedule took (with -scaling; scaling.go
	// keeps those of the spaces it simulates).
	Costs []float64 `json:"-"`
}

// trialsFor is how many seeds strategy s needs.
func trialsFor(s string, seeds int) int {
	if SeedFree[s] {
		return 1
	}
	return seeds
}

// Run prepares and builds the benchmark packages, then explores every
// annotated test with every strategy and seed. On cancellation it returns
// what was measured so far together with the context's error.
func Run(ctx context.Context, opts Options) (*Results, error) {
	if opts.Progress == nil {
		opts.Progress = func(string, ...any) {}
	}
	if opts.Seeds < 1 {
		opts.Seeds = 1
	}
	start := time.Now()
	res := &Results{Command: opts.Command, Date: start.Format(time.RFC3339), GoVersion: runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH, CPUs: runtime.NumCPU(), Budget: opts.Budget, Seeds: opts.Seeds,
		Bound: opts.Bound, Continue: opts.Continue, Strategies: opts.Strategies,
		Races: "race detection off (races do not count as the wanted bug), except in tests that want a race",
		Load:  loadavg()}
	var re *regexp.Regexp
	if opts.Run != "" {
		var err error
		if re, err = regexp.Compile(opts.Run); err != nil {
			return nil, fmt.Errorf("-run: %v", err)
		}
	}
	work, err := os.MkdirTemp("", "period-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	pkgs, err := instrument.Prepare(instrument.PrepareOptions{Dir: opts.Dir, Patterns: opts.Patterns, WorkDir: filepath.Join(work, "src")})
	if err != nil {
		return nil, err
	}
	var targets []target
	for i, pkg := range pkgs {
		want, err := Wants(pkg.Dir)
		if err != nil {
			return nil, err
		}
		var tests []Test
		for _, name := range pkg.Tests {
			if w := want[name]; w != "" && (re == nil || re.MatchString(name)) {
				tests = append(tests, Test{Package: pkg.ImportPath, Name: name, Want: w})
			}
		}
		if len(tests) == 0 {
			continue
		}
		bin := filepath.Join(work, fmt.Sprintf("pkg%d.test", i))
		t0 := time.Now()
		if err := pkg.Build(ctx, bin); err != nil {
			return nil, err
		}
		opts.Progress("built %s (%d benchmark tests) in %.1fs", pkg.ImportPath, len(tests), time.Since(t0).Seconds())
		for _, t := range tests {
			targets = append(targets, target{runner.Binary{Path: bin, Dir: pkg.Dir, Package: pkg.ImportPath, Tests: pkg.Tests}, t})
			res.Tests = append(res.Tests, t)
		}
	}
	if len(targets) == 0 {
		return nil, fmt.Errorf("no test carries a // period:want line in %s", strings.Join(opts.Patterns, " "))
	}
	total := 0
	for _, s := range opts.Strategies {
		total += len(targets) * trialsFor(s, opts.Seeds)
	}
	done := 0
	for _, tg := range targets {
		for _, s := range opts.Strategies {
			cell := Cell{Package: tg.test.Package, Test: tg.test.Name, Want: tg.test.Want, Strategy: s}
			for seed := int64(1); seed <= int64(trialsFor(s, opts.Seeds)); seed++ {
				if err := ctx.Err(); err != nil {
					res.Wall = time.Since(start).Seconds()
					res.Load += " -> " + loadavg()
					return res, err
				}
				tr := explore(ctx, tg.bin, tg.test, s, seed, opts, filepath.Join(work, "replays"))
				cell.Trials = append(cell.Trials, tr)
				done++
				opts.Progress("[%d/%d %s] %s %s seed %d: %s", done, total, elapsed(time.Since(start)), tg.test.Name, s, seed, tr.outcome(tg.test.Want))
			}
			res.Cells = append(res.Cells, cell)
		}
	}
	if opts.Scaling {
		sc, err := measureScaling(ctx, targets, res, opts, filepath.Join(work, "scaling"))
		res.Scaling = sc
		if err != nil {
			res.Wall = time.Since(start).Seconds()
			res.Load += " -> " + loadavg()
			return res, err
		}
	}
	res.Wall = time.Since(start).Seconds()
	res.Load += " -> " + loadavg()
	return res, nil
}

// target is a benchmark test and the binary that explores it.
type target struct {
	bin  runner.Binary
	test Test
}

// loadavg is the 1, 5 and 15 minute load average ("" where unknown).
func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return ""
}

// nativeHang is how long a native run of a benchmark program may take
// before it counts as a hang: the programs take milliseconds, and a
// deadlock that keeps a ticker alive is not seen by Go's runtime.
const nativeHang = 10 * time.Second

// explore runs one trial.
func explore(ctx context.Context, bin runner.Binary, t Test, strategy string, seed int64, opts Options, out string) Trial {
	cfg := trialConfig(t, strategy, seed, opts, out)
	cfg.Costs = opts.Scaling
	t0 := time.Now()
	results, err := runner.Run(ctx, bin, runner.Options{Config: cfg, Timeout: opts.Timeout})
	tr := Trial{Seed: seed, Wall: time.Since(t0).Seconds()}
	if err != nil {
		tr.Error = errorLine(err)
		return tr
	}
	if len(results) != 1 {
		tr.Error = fmt.Sprintf("%d results for one test", len(results))
		return tr
	}
	r := results[0]
	tr.Schedules, tr.Elapsed, tr.Exhausted, tr.Crashes, tr.Costs = r.Schedules, r.Elapsed, r.Exhausted, r.Crashes, r.Costs
	for _, b := range r.Bugs {
		if !slices.Contains(tr.Kinds, b.Kind) {
			tr.Kinds = append(tr.Kinds, b.Kind)
		}
		if tr.FirstAny == 0 || b.Schedule < tr.FirstAny {
			tr.FirstAny, tr.FirstAnyKind = b.Schedule, b.Kind
		}
		if b.Kind == t.Want && (tr.First == 0 || b.Schedule < tr.First) {
			tr.First, tr.Found = b.Schedule, true
		}
	}
	if t.Want == "none" {
		for _, n := range r.Buggy {
			tr.Buggy += n // a schedule with two kinds counts twice: an upper bound of false alarms
		}
	} else {
		tr.Buggy = r.Buggy[t.Want]
	}
	if tr.Buggy == 0 && tr.Found {
		tr.Buggy = 1 // a crash (the process died) is reported but not counted by the test process
	}
	if opts.Timeout > 0 && tr.Wall >= opts.Timeout.Seconds() {
		tr.Error = fmt.Sprintf("timed out after %v", opts.Timeout)
	}
	return tr
}

// trialConfig is the configuration of an exploration of t.
func trialConfig(t Test, strategy string, seed int64, opts Options, out string) rt.Config {
	return rt.Config{Run: "^" + regexp.QuoteMeta(t.Name) + "$", Strategy: strategy, Seed: seed, Bound: opts.Bound,
		Budget: opts.Budget, Continue: opts.Continue, MaxSteps: opts.MaxSteps, OutDir: out, NoRace: t.Want != "race",
		EarlyTimers: opts.EarlyTimers, NativeHang: nativeHang}
}

// outcome is the progress line's verdict of a trial.
func (tr Trial) outcome(want string) string {
	switch {
	case tr.Error != "":
		return "error: " + tr.Error
	case want == "none" && len(tr.Kinds) == 0:
		return fmt.Sprintf("no bug in %d schedules (correct) %.1fs", tr.Schedules, tr.Wall)
	case want == "none":
		return fmt.Sprintf("FALSE ALARM %v in %d schedules %.1fs", tr.Kinds, tr.Schedules, tr.Wall)
	case tr.Found:
		return fmt.Sprintf("%s at schedule %d (%d buggy of %d) %.1fs", want, tr.First, tr.Buggy, tr.Schedules, tr.Wall)
	}
	return fmt.Sprintf("no %s in %d schedules %v %.1fs", want, tr.Schedules, tr.Kinds, tr.Wall)
}

func elapsed(d time.Duration) string {
	return d.Round(time.Second).String()
}

var fatalLine = regexp.MustCompile(`(?m)^(fatal error|panic): .*$`)

// errorLine shortens a runner error (which ends with the process's output)
// to its first line and the process's fatal error, if any.
func errorLine(err error) string {
	s := err.Error()
	first, _, _ := strings.Cut(s, "\n")
	if m := fatalLine.FindString(s); m != "" && m != first {
		first += ": " + m
	}
	return first
}
