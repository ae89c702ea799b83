//go:build go1.21

package rt

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/period-dev/period/strategy"
	"github.com/period-dev/period/trace"
)

// Test is one test function handed to Explore by the generated driver.
type Test struct {
	Name string
	F    func(*testing.T)
}

// Config is what the period command passes to the test process, as JSON in
// the PERIOD_CONFIG environment variable.
type Config struct {
	Package  string
	Dir      string
	Run      string // regexp selecting tests
	Strategy string
	Seed     int64
	Bound    int
	Budget   int
	Continue bool // keep exploring after a bug; report each distinct bug once
	Focus    string
	NoRace   bool   // turn data-race detection off
	Short    bool   // testing.Short() is true, as under go test -short
	Tags     string // build tags of the binary (recorded in replay files)
	// Args are the test binary's own arguments, after its -test. flags
	// (period test -args; recorded in replay files).
	Args []string `json:",omitempty"`
	// Instrument and Uninstrumented say which dependencies the binary
	// controls (recorded in replay files, so that a replay builds the same).
	Instrument     string   `json:",omitempty"`
	Uninstrumented []string `json:",omitempty"`
	// Prelude names tests to run once each, natively and in this order,
	// before any is explored: those go test runs before the explored test,
	// so that a fresh process gives it the package state go test gives it.
	Prelude []string `json:",omitempty"`
	// Selection is the user's -run pattern (replay files record it): the
	// tests a fresh process runs first are those it selects before the
	// explored one, as go test -run runs them (runner.TestsBefore).
	Selection string `json:",omitempty"`
	// FirstClockBase (Unix nanoseconds) is where schedule 1's virtual clock
	// starts, when not 0: the runner's check that a schedule which passed
	// still passes in a fresh process (failsWherePassed) reads the clock
	// as that schedule did, so that randomness seeded with the clock
	// draws what it drew then (BugReport.FirstClockBase).
	FirstClockBase int64 `json:",omitempty"`
	Parallel       bool  // strategies that release runs (PERIOD's last period) run them free: see free.go
	// EarlyTimers: a timer, sleep or deadline set to at most this far ahead
	// may fire as soon as it is set, a choice the strategy makes (time.go:
	// early). 0: timers fire when the clock reaches them, never before.
	EarlyTimers time.Duration `json:",omitempty"`
	// TimersWhenBlocked: timers, sleeps and deadlines fire only when no
	// goroutine can run but pollers (period test -timers=blocked): not as
	// steps make time pass, and never early.
	TimersWhenBlocked bool `json:",omitempty"`

	MaxSteps int // steps per schedule before a hang is reported
	// AdaptiveSteps derives the step limit from the test itself (the user
	// did not set -steps): the first schedule may run 10*MaxSteps and is
	// cut, not reported, if it exceeds them (the test is too big to explore);
	// later schedules are a hang only beyond max(MaxSteps, 100 times the
	// first schedule's steps), since a fair schedule of a finite test does
	// not run a hundred times longer than another.
	AdaptiveSteps bool
	Watchdog      time.Duration // a goroutine without a key point for this long is detached
	// Leaks is what goroutines left when a test returns are reported:
	// "all" (default: blocked ones and ones still woken by timers, but
	// not those parked on channels a package-level variable reaches:
	// reach.go), "blocked" (only those parked on what no timer wakes),
	// "off", "any" (as all, with those a package-level variable reaches).
	Leaks string
	// IgnoreLeak names functions (as goleak's IgnoreAnyFunction): a left
	// goroutine with one on its stack, or created by one, is not reported.
	IgnoreLeak []string
	HangAfter  time.Duration // nothing but detached goroutines for this long: hang
	// NativeHang: with strategy native, a run that has not returned after
	// this long (real time; 0: defaultNativeHang) is a hang.
	NativeHang time.Duration `json:",omitempty"`

	OutDir  string // where replay files go
	Results string // JSON-lines file the results are appended to
	Replay  string // replay this trace file instead of exploring
	// Minimize > 0 with Replay: shrink the replay's schedule instead,
	// trying at most Minimize candidates, and write the result to
	// MinimizeOut (see minimize.go).
	Minimize    int    `json:",omitempty"`
	MinimizeOut string `json:",omitempty"`
	// Fresh names a state file: explore one schedule of the (single)
	// selected test, continuing the exploration the file records, and
	// update it (see fresh.go).
	Fresh string

	// Split exploration (period test -p, -shard; see split.go): run only
	// the schedules Runs (1-based, increasing) of the single selected test,
	// each from the state file Start records (the exploration as it was
	// before the first of them), report each in a "sched" line, stop after
	// the first that changes that state or ends the exploration, and write
	// the state after the last schedule run to StateOut.
	Start    string `json:",omitempty"`
	Runs     []int  `json:",omitempty"`
	StateOut string `json:",omitempty"`
	// Procs, when positive, is the GOMAXPROCS the runner gives the test
	// process (its environment, unless the user set GOMAXPROCS): workers
	// of one split exploration share the machine's processors.
	Procs int `json:",omitempty"`
	// Costs: the summary lists each schedule's time (Summary.Costs), for
	// period bench -scaling, which simulates exhausting a bounded space
	// with many workers from them.
	Costs bool `json:",omitempty"`

	// Crash recovery: schedules (1-based) of Test to skip because they killed
	// an earlier process, and the schedule to trace step by step to disk.
	Skip      []int
	TraceRun  int
	TraceFile string
}

// defaultNativeHang is how long a native run may take before it is a
// hang (Config.NativeHang).
const defaultNativeHang = time.Minute

// DefaultEarlyTimers is period test's -early-timers: wake-ups set at most
// this far ahead may fire at once (see engine.early). A goroutine that is
// runnable on an idle machine runs within tens of microseconds; waits of a
// millisecond or more are how tests (and mock clocks) let other goroutines
// run first, and firing those early would fail such tests falsely.
const DefaultEarlyTimers = 100 * time.Microsecond

type config struct {
	Config
	maxSteps   int
	cutAtLimit bool // reaching maxSteps cuts the run (counted in Summary.Cut), no verdict
	firstSteps int  // steps and plain accesses of the test's first schedule (AdaptiveSteps)
	watchdog   time.Duration
	hangAfter  time.Duration
	onBug      func(*engine, bug)
}

// hangMessage explains a run that reached the step limit.
func (c *config) hangMessage() string {
	if c.AdaptiveSteps && c.firstSteps > 0 {
		return fmt.Sprintf("no progress under fair scheduling: the schedule ran %d steps, over 100 times the %d steps and memory accesses of the test's first schedule (livelock or unbounded loop); use -steps to set the limit", c.maxSteps, c.firstSteps)
	}
	return fmt.Sprintf("the schedule exceeded %d steps under fair scheduling (livelock or unbounded loop); use -steps to raise the limit", c.maxSteps)
}

// stepLimit sets the step limit of the next schedule (AdaptiveSteps).
func (c *config) stepLimit(schedule int) {
	if !c.AdaptiveSteps {
		return
	}
	if schedule == 1 {
		c.maxSteps, c.cutAtLimit = 10*c.MaxSteps, true
		return
	}
	c.maxSteps, c.cutAtLimit = max(c.MaxSteps, 100*c.firstSteps), false
}

func loadConfig() (Config, error) {
	c := Config{Strategy: "random", Budget: 100, Seed: 1}
	s := os.Getenv("PERIOD_CONFIG")
	if f := os.Getenv("PERIOD_CONFIG_FILE"); f != "" {
		// A configuration too long for the environment (a split worker's
		// list of schedules) comes in a file.
		b, err := os.ReadFile(f)
		if err != nil {
			return c, fmt.Errorf("PERIOD_CONFIG_FILE: %v", err)
		}
		s = string(b)
	}
	if s != "" {
		if err := json.Unmarshal([]byte(s), &c); err != nil {
			return c, fmt.Errorf("PERIOD_CONFIG: %v", err)
		}
	}
	if c.MaxSteps == 0 {
		c.MaxSteps = 100000
	}
	if c.Watchdog == 0 {
		c.Watchdog = time.Second
	}
	if c.HangAfter == 0 {
		c.HangAfter = 5 * time.Second
	}
	if c.OutDir == "" {
		c.OutDir = os.TempDir()
	}
	return c, nil
}

// BugReport is one distinct bug in a summary.
type BugReport struct {
	Kind     string
	Schedule int
	Message  string
	Location string
	Replay   string
	// Leaks and deadlocks: the go statement (file:line) that created the
	// goroutine at Location, and the function that executed it.
	Created   string `json:",omitempty"`
	CreatedBy string `json:",omitempty"`
	// FailFirst (fails): the first line of the first t.Error or t.Fatal
	// message, so that the period command locates the fail at that call
	// rather than at a t.Log before it.
	FailFirst string `json:",omitempty"`
	// ClockBase: where the run's virtual clock started (Unix nanoseconds).
	// The replay file leaves it out, so that the same schedules give the
	// same bytes; the runner writes it in when a confirmation needs it
	// (trace.Trace.ClockBase).
	ClockBase int64 `json:",omitempty"`
	// ClockRead: the program read the clock before the bug (time.Now,
	// Since, Until), so that its replay may depend on where the clock
	// started: the confirmation replays from ClockBase first.
	ClockRead bool `json:",omitempty"`
	// FirstClockBase: where schedule 1's virtual clock started, when the
	// process that found the bug ran it and the program read the clock
	// (Config.FirstClockBase).
	FirstClockBase int64 `json:",omitempty"`
}

// Summary is the result of exploring one test.
type Summary struct {
	Action    string // "summary"
	Package   string
	Test      string
	Strategy  string
	Seed      int64
	Bound     int
	Schedules int
	Steps     int
	Elapsed   float64 // seconds
	Bugs      []BugReport
	Schedule  string `json:",omitempty"` // the first bug's schedule in the strategy's notation
	Diverged  string `json:",omitempty"` // replay: where the run left the recorded interleaving
	Exhausted bool   `json:",omitempty"` // the strategy explored its whole space
	// Buggy counts, per bug kind, the schedules that hit at least one bug of
	// that kind (every schedule, also those whose bug was reported before).
	Buggy map[string]int `json:",omitempty"`
	// Uncontrolled counts the key points (over all schedules) that
	// goroutines started by uninstrumented code executed: Period did not
	// schedule them, so their interleavings were not explored.
	Uncontrolled int `json:",omitempty"`
	// Unconfirmed counts the bugs found in free mode (Config.Parallel)
	// that a serial replay of their record did not reproduce: not reported.
	Unconfirmed int `json:",omitempty"`
	// Cut counts the schedules stopped at the step limit without a verdict:
	// the test's first schedule was too long to explore (exploration then
	// stops), see Config.AdaptiveSteps.
	Cut int `json:",omitempty"`
	// Forced counts the decisions where fairness overrode the strategy: a
	// goroutine had been passed over unfairBound times while enabled.
	Forced int `json:",omitempty"`
	// Abandoned counts the schedules given up without a verdict because a
	// goroutine waited too long inside code Period does not control (a
	// dependency's clock or lock, the network); exploration of the test
	// stops there. AbandonedWhy says which goroutine and where.
	Abandoned    int    `json:",omitempty"`
	AbandonedWhy string `json:",omitempty"`
	// TimedOut: period test's -timeout ended the exploration before the
	// budget (set by the runner); Schedules counts the schedules finished.
	TimedOut bool `json:",omitempty"`
	// Interrupted: Ctrl-C or SIGTERM stopped the exploration (set by the
	// runner); its bugs so far are kept, not confirmed in a fresh process.
	Interrupted bool `json:",omitempty"`
	// Costs are the seconds each schedule took in this process, in order
	// (Config.Costs): from its set-up to the strategy's End.
	Costs []float64 `json:",omitempty"`
}

// countBuggy adds one schedule's bug kinds to s.Buggy, each kind once.
func (s *Summary) countBuggy(kinds ...string) {
	for i, k := range kinds {
		if slices.Contains(kinds[:i], k) {
			continue
		}
		if s.Buggy == nil {
			s.Buggy = map[string]int{}
		}
		s.Buggy[k]++
	}
}

// progress is a line telling the parent which schedule runs (crash recovery).
type progress struct {
	Action   string // "run"
	Test     string
	Schedule int
	Steps    int `json:",omitempty"` // the steps of the test's earlier schedules in this process
}

// stepsLine tells the parent how many steps the running schedule has taken
// (its progress lines show them: a very long schedule is visible as such).
type stepsLine struct {
	Action   string // "steps"
	Test     string
	Schedule int
	Steps    int64
	Subtest  string `json:",omitempty"` // the subtest started last and still running: where a long schedule is
}

// stepsEvery is how often a running schedule's steps are written.
const stepsEvery = time.Second

// reportSteps writes a "steps" line every stepsEvery until the returned
// function is called. Like the watchdog it is a timer that re-arms itself,
// not a goroutine, so the test sees no goroutine of Period's.
func (e *engine) reportSteps(out *resultWriter, test string, schedule int) (stop func()) {
	if out == nil {
		return func() {}
	}
	start := e.progress.Load()
	var mu sync.Mutex
	done := false
	var t *time.Timer
	mu.Lock()
	defer mu.Unlock()
	t = time.AfterFunc(stepsEvery, func() {
		periodOwn.Add(1) // not a goroutine of the program's (freshOutside)
		defer periodOwn.Add(-1)
		mu.Lock()
		defer mu.Unlock()
		if done {
			return
		}
		line := stepsLine{Action: "steps", Test: test, Schedule: schedule, Steps: e.progress.Load() - start}
		if sub := e.inSubtest.Load(); sub != nil {
			line.Subtest = *sub
		}
		out.write(line)
		t.Reset(stepsEvery)
	})
	return func() {
		mu.Lock()
		done = true
		t.Stop()
		mu.Unlock()
	}
}

type resultWriter struct {
	mu sync.Mutex
	f  *os.File
}

func (w *resultWriter) write(v any) {
	if w == nil || w.f == nil {
		return
	}
	b, _ := json.Marshal(v)
	w.mu.Lock()
	w.f.Write(append(b, '\n')) // unbuffered: survives the process dying right after
	w.mu.Unlock()
}

var globals []func() (restore func())

// Globals registers a snapshot of package-level variables; the engine resets
// them before every run, so each schedule starts from the state after init
// (and the tests run before the explored one, Config.Prelude).
func Globals(snapshot func() (restore func())) bool {
	globals = append(globals, snapshot)
	return true
}

// exploring is set while Explore drives the tests of this process.
var exploring atomic.Bool

// ownHeapCollect is the size of a run's records (ownHeap) past which the
// next run starts with a collection.
const ownHeapCollect = 8 << 20

// Verbose is testing.Verbose(). The driver runs with -test.v (the runner
// reads the tests' log lines); the tests it explores see what they would
// see under go test without -v: Period shows no log of a passing run.
func Verbose() bool {
	if exploring.Load() {
		return false
	}
	return testing.Verbose()
}

// quietNestedRuns turns -test.v off while tests are explored, until the
// returned function restores it. The driver's own subtests keep printing (a
// subtest takes its parent's printer when it starts); a run of package
// testing nested in an explored test (testing.RunTests, testing.MainStart:
// testify's suite tests read its output) prints as under go test without
// -v, only failures.
func quietNestedRuns() (restore func()) {
	f := flag.Lookup("test.v")
	if f == nil {
		return func() {}
	}
	was := f.Value.String()
	if f.Value.Set("false") != nil {
		return func() {}
	}
	return func() { f.Value.Set(was) }
}

// Explore runs each test under the controlled scheduler, configured by the
// period command through PERIOD_CONFIG.
func Explore(t *testing.T, tests []Test) {
	cfg, err := loadConfig()
	if err != nil {
		t.Fatal(err)
	}
	defer startProfile()()
	exploring.Store(true)
	defer exploring.Store(false)
	defer quietNestedRuns()()
	var out *resultWriter
	if cfg.Results != "" {
		f, err := os.OpenFile(cfg.Results, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		out = &resultWriter{f: f}
	}
	re, err := CompileRun(cfg.Run)
	if err != nil {
		t.Fatalf("-run: %v", err)
	}
	if subtests, err = CompileRun(cfg.Selection); err != nil || !subtests.HasSubtests() {
		subtests = nil
	}
	defer func() { subtests = nil }()
	var restores []func()
	if len(globals) > 0 {
		settleInit()
	}
	runPrelude(t, tests, cfg.Prelude)
	// Taken after the tests go test would run first: a schedule starts from
	// the state they leave (rollbar-go's TestDisableDefaultClient closes the
	// default client and sets a new one; restored to the closed one, the
	// explored test's Close panicked with "close of closed channel").
	for _, snap := range globals {
		restores = append(restores, snap())
	}
	var rep *trace.Trace
	if cfg.Replay != "" {
		if rep, err = trace.ReadFile(cfg.Replay); err != nil {
			t.Fatal(err)
		}
		cfg.fromReplay(rep)
	}
	// The runner passes -short in the configuration, so that a replay file
	// can carry it too; package testing reads the flag when a test asks.
	if cfg.Short {
		if err := flag.Set("test.short", "true"); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range tests {
		if rep != nil && tt.Name != rep.Test || rep == nil && !re.Match(tt.Name) && !re.Match(testBase(tt.Name)) {
			continue
		}
		// Goroutine IDs are numbered per test, so that a test explores the
		// same schedules whether other tests ran before it in the process
		// or not (period test -p runs tests in processes of their own).
		resetPaths()
		var s Summary
		if rep != nil {
			// The runner learns which schedule a dying process was in from "run" lines.
			out.write(progress{Action: "run", Test: tt.Name, Schedule: rep.Schedule})
			if cfg.Minimize > 0 {
				s = minimizeOne(t, tt, cfg, rep, restores)
			} else {
				eng.replayBug = bugWriter(out, tt.Name, rep.Schedule)
				s = replayOne(t, tt, cfg, rep, restores)
				eng.replayBug = nil
			}
		} else {
			s = exploreOne(t, tt, cfg, restores, out)
		}
		out.write(s)
		if out == nil {
			t.Logf("%+v", s)
		}
	}
}

// fromReplay takes the settings a replay file recorded.
func (c *Config) fromReplay(rep *trace.Trace) {
	c.Short, c.Tags, c.Instrument, c.Uninstrumented, c.Args = rep.Short, rep.Tags, rep.Instrument, rep.Uninstrumented, rep.Args
	c.EarlyTimers = rep.EarlyTimers // the file's choices include early wake-ups only if its exploration offered them
	c.TimersWhenBlocked = rep.TimersWhenBlocked
}

// bugWriter writes a replay's bugs to the results file as they are found:
// a process that dies after one still tells the runner.
func bugWriter(out *resultWriter, test string, schedule int) func(bug) {
	return func(b bug) {
		out.write(struct {
			Action string
			Test   string
			BugReport
		}{"bug", test, BugReport{Kind: b.kind, Schedule: schedule, Message: b.message, Location: b.location, Created: b.created, CreatedBy: b.createdBy, FailFirst: b.failFirst}})
	}
}

func (e *engine) resetRun(idx int) {
	e.restartClock() // before the previous run's clock is reset
	if idx == 0 {
		if e.cfg.FirstClockBase != 0 && e.replayBase.IsZero() {
			timeBase = time.Unix(0, e.cfg.FirstClockBase)
		}
		e.firstBase = timeBase
	}
	e.runIdx = idx
	e.runGen++
	e.gs = e.gs[:0]
	e.byGoid.reset()
	e.cur = nil
	e.yielder = nil
	e.outside = 0
	e.outsideGs.reset()
	e.bgLive = !e.bgAt.IsZero() && time.Since(e.bgAt) < bgQuiet
	e.testStepAt, e.undetaches = 0, 0
	e.silentSig, e.silentFrom, e.silentJumps = 0, time.Time{}, 0
	e.transit, e.detached, e.seq, e.steps, e.forced, e.lastEffect, e.pollYields = 0, 0, 0, 0, 0, 0, 0
	e.plainAccesses, e.plainAtPoll, e.loopWork, e.workAt = 0, 0, 0, 0
	e.timerWaitStep, e.timerWaitFrom = 0, time.Time{}
	e.soloPlain.Store(0)
	resetOutsideTimers()
	e.soloGoid.Store(0)
	e.soloSeen = 0
	e.parRunning = 0
	e.free, e.freeOver, e.leaving = false, false, false
	e.frand = strategy.SplitMix{S: uint64(e.cfg.Seed)*0xd1b54a32d192ed03 ^ uint64(idx+1)}
	e.log.reset()
	e.choices = nil
	e.stopping, e.finished, e.rootDone, e.cut, e.outsideWait, e.failFirst = false, false, false, false, "", ""
	e.bubble, e.drift, e.nowStreak, e.nowSince, e.loads, e.jumpTo = false, 0, 0, 0, 0, 0
	clear(e.spinners)
	e.spinners, e.spinParked = e.spinners[:0], 0
	e.randSrc, e.mathRandSrc, e.alts, e.everDetached = nil, nil, 0, false
	e.graceFrom, e.graceStep, e.childFrom = time.Time{}, 0, time.Time{}
	e.realAnchor, e.vAnchor, e.anchorOutside, e.waitedReal = time.Time{}, 0, false, 0
	e.gcAt = time.Time{}
	e.handedOut, e.idle, e.realDeadlines, e.fileKinds, e.connDeadlines, e.wgWaits = 0, false, nil, nil, nil, 0
	e.countWaitFrom = time.Time{}
	runtime.Gosched() // the last run's goroutines may still be ending
	e.baseG, e.outsideSeen = runtime.NumGoroutine()-int(periodLive.Load()+periodOwn.Load()), 0
	e.exited = new(sync.WaitGroup)
	e.stepStamp.Store(time.Now().UnixNano())
	e.detachedHooks = 0
	e.afterRoot, e.rootAt, e.rootSteps, e.burstFrom = 0, 0, 0, 0
	e.runDone = make(chan struct{})
	e.bugs = nil
	e.models.reset()
	e.clock.reset()
	e.clockRead = false
	big := e.ownHeap() > ownHeapCollect
	e.mem.reset()
	e.race.reset(!e.cfg.NoRace)
	if big {
		// The last run's records are garbage now: collected at once, they
		// neither stay in the process's memory nor count in the heap a
		// poller of the next run reads (ReadMemStats: 256 MB of them made
		// gopher-lua's 40 MB limit exit).
		runtime.GC()
	}
	e.rs.reset()
}

// endsExploration tells whether the bugs found so far end an exploration
// without -continue. Races do not: a program may race harmlessly and still
// hide the failure the user is after, so exploration goes on and reports each
// distinct race once.
func endsExploration(bugs []BugReport) bool {
	for _, b := range bugs {
		if b.Kind != "race" {
			return true
		}
	}
	return false
}

func bugKey(b bug) string {
	if b.key != "" {
		return b.key
	}
	msg := b.message
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if b.kind == "deadlock" || b.kind == "leak" || b.location != "" {
		msg = ""
	}
	return b.kind + "|" + b.location + "|" + msg
}

func exploreOne(t *testing.T, tt Test, cfg Config, restores []func(), out *resultWriter) Summary {
	start := time.Now()
	sum := Summary{Action: "summary", Package: cfg.Package, Test: tt.Name, Strategy: cfg.Strategy, Seed: cfg.Seed, Bound: cfg.Bound}
	eng.mu.Lock()
	eng.replayBase = time.Time{} // explored runs start at the real present
	eng.firstBase = time.Time{}
	eng.mu.Unlock()
	if cfg.Strategy == "native" {
		return exploreNative(t, tt, cfg, restores, sum, start, out)
	}
	st, err := strategy.New(cfg.Strategy, strategy.Options{Seed: cfg.Seed, Bound: cfg.Bound, Budget: cfg.Budget, Focus: cfg.Focus})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Start != "" {
		return exploreSplit(t, tt, cfg, st, restores, out, sum, start)
	}
	var fs *freshState
	if cfg.Fresh != "" {
		if fs, err = loadFresh(cfg.Fresh, cfg, tt.Name); err == nil {
			st, err = fs.restoreStrategy(st)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return exploreWith(t, tt, cfg, st, restores, out, sum, start, fs, nil)
}

// exploreWith runs the exploration loop of one test with strategy st.
// With fs, it continues the exploration fs records and stops after one
// schedule that ran.
func exploreWith(t *testing.T, tt Test, cfg Config, st strategy.Strategy, restores []func(), out *resultWriter, sum Summary, start time.Time, fs *freshState, sp *splitRun) Summary {
	e := eng
	e.cfg = config{Config: cfg, maxSteps: cfg.MaxSteps, watchdog: cfg.Watchdog, hangAfter: cfg.HangAfter}
	e.testHash = nameHash(tt.Name)
	e.strat = st
	e.replay = nil
	e.releaser = nil
	if r, ok := st.(strategy.Releaser); ok && cfg.Parallel {
		e.releaser = r
	}
	e.mem.shared = map[string]bool{}
	e.mem.learned = nil
	e.mem.frozen = false
	skip := map[int]bool{}
	for _, k := range cfg.Skip {
		skip[k] = true
	}
	seen := map[string]bool{}
	os.MkdirAll(cfg.OutDir, 0o755)
	schedule := 0
	if fs != nil {
		schedule = fs.Schedules
		sum.Exhausted = fs.Exhausted
		for _, s := range fs.Shared {
			e.mem.shared[s] = true
		}
		e.cfg.firstSteps = fs.FirstSteps
		for _, k := range fs.Seen {
			seen[k] = true
		}
	}
	if sp != nil {
		sp.begin(e, seen)
	}
	publish := func(tr *trace.Trace, b bug) {
		path := filepath.Join(cfg.OutDir, trace.FileName(tt.Name, cfg.Strategy, cfg.Seed, schedule, tr.Kind))
		base := tr.ClockBase
		tr.ClockBase = time.Time{} // in the report, not the file (BugReport.ClockBase)
		if err := tr.WriteFile(path); err != nil {
			path = "(replay file not written: " + err.Error() + ")"
		}
		br := BugReport{Kind: tr.Kind, Schedule: schedule, Message: tr.Message, Location: tr.Location, Replay: path, Created: b.created, CreatedBy: b.createdBy, FailFirst: b.failFirst, ClockBase: base.UnixNano(), ClockRead: b.clockRead}
		if b.clockRead && !e.firstBase.IsZero() {
			br.FirstClockBase = e.firstBase.UnixNano()
		}
		sum.Bugs = append(sum.Bugs, br)
		out.write(struct {
			Action string
			Test   string
			BugReport
		}{"bug", tt.Name, br})
	}
	type found struct {
		tr *trace.Trace
		b  bug
	}
	held := map[string]found{} // found in free mode, reported once confirmed
	e.cfg.onBug = func(e *engine, b bug) {
		key := bugKey(b)
		if _, ok := held[key]; seen[key] || ok {
			return
		}
		tr := e.traceOf(cfg, tt.Name, schedule, b)
		if e.free || e.freeOver {
			held[key] = found{tr, b}
			return
		}
		// Written before anything else can fail: the replay file first.
		seen[key] = true
		publish(tr, b)
	}
	for schedule < cfg.Budget && !sum.Exhausted {
		if sp != nil && !sp.next(&schedule) {
			break
		}
		if !st.Begin() {
			sum.Exhausted = true
			if sp != nil {
				out.write(splitLine{Action: "sched", Test: tt.Name, Schedule: schedule + 1, Exhausted: true, End: true})
			}
			break
		}
		schedule++
		began := time.Now()
		for _, r := range restores {
			r()
		}
		e.mu.Lock()
		e.resetRun(schedule - 1)
		e.cfg.stepLimit(schedule)
		e.mu.Unlock()
		out.write(progress{Action: "run", Test: tt.Name, Schedule: schedule, Steps: sum.Steps})
		stopSteps := e.reportSteps(out, tt.Name, schedule)
		nb := len(sum.Bugs)
		if skip[schedule] {
			e.mu.Lock()
			e.finished = true
			e.mu.Unlock()
		} else {
			var tf *os.File
			if cfg.TraceRun == schedule && cfg.TraceFile != "" {
				tf, _ = os.Create(cfg.TraceFile)
				e.traceTo = tf
			}
			t.Run(fmt.Sprintf("%s/s%d", tt.Name, schedule), func(t *testing.T) {
				e.run(t, func() { tt.F(t) })
			})
			e.traceTo = nil
			if tf != nil {
				tf.Close()
			}
		}
		stopSteps()
		e.mu.Lock()
		run := &strategy.Run{Index: schedule - 1, Log: &e.log, Paths: allPaths(), Buggy: len(e.bugs) > 0, Cut: e.stopping}
		if !readsLog(st) {
			run.Events = e.log.events()
		}
		run.Born = make(map[strategy.GID]int, len(e.gs))
		for _, g := range e.gs {
			if g.parent != nil {
				run.Born[g.id] = g.born
			}
		}
		sum.Steps += e.steps
		sum.Forced += e.forced
		if schedule == 1 {
			// Key points and the accesses that were not: later schedules
			// make key points of sites this one found shared (buntdb's
			// TestAutoShrink: 6,305 steps, then past a million).
			e.cfg.firstSteps = e.steps + e.plainAccesses + int(e.soloPlain.Load())
		}
		if e.cut {
			sum.Cut++
		}
		if e.outsideWait != "" {
			sum.Abandoned++
			sum.AbandonedWhy = e.outsideWait
		}
		sum.Uncontrolled += e.outside
		only := e.onlySchedule()
		kinds := make([]string, len(e.bugs))
		for i, b := range e.bugs {
			kinds[i] = b.kind
		}
		sum.countBuggy(kinds...)
		e.mu.Unlock()
		st.End(run)
		for key, h := range held {
			if e.confirm(t, tt, cfg, h.tr, restores) {
				seen[key] = true
				publish(h.tr, h.b)
			} else {
				sum.Unconfirmed++
			}
			delete(held, key)
		}
		if cfg.Costs {
			sum.Costs = append(sum.Costs, time.Since(began).Seconds())
		}
		if len(sum.Bugs) > nb && sum.Schedule == "" {
			if d, ok := st.(strategy.Describer); ok {
				sum.Schedule = d.Describe()
			}
		}
		if sp != nil && sp.ran(e, tt.Name, schedule, sum, nb, kinds, out) {
			break
		}
		if !cfg.Continue && endsExploration(sum.Bugs) || e.cut && schedule == 1 || e.outsideWait != "" {
			break
		}
		if schedule == 1 && only && !skip[schedule] {
			sum.Exhausted = true
			break
		}
		if fs != nil && !skip[schedule] {
			break
		}
	}
	if sp != nil {
		sp.fs.record(st, e, schedule, seen)
		sp.fs.Exhausted = sum.Exhausted
		if err := sp.fs.save(cfg.StateOut); err != nil {
			t.Fatal(err)
		}
	}
	if fs != nil {
		fs.record(st, e, schedule, seen)
		fs.Exhausted = sum.Exhausted
		if err := fs.save(cfg.Fresh); err != nil {
			t.Fatal(err)
		}
	}
	sum.Schedules = schedule
	sum.Elapsed = time.Since(start).Seconds()
	return sum
}

// traceOf builds the replay record of the current run.
func (e *engine) traceOf(cfg Config, test string, schedule int, b bug) *trace.Trace {
	tr := &trace.Trace{
		Package: cfg.Package, Dir: cfg.Dir, Test: test, Strategy: cfg.Strategy, Seed: cfg.Seed, Bound: cfg.Bound, NoRace: cfg.NoRace,
		Short: cfg.Short, Tags: cfg.Tags, Args: cfg.Args, Instrument: cfg.Instrument, Uninstrumented: cfg.Uninstrumented,
		EarlyTimers: cfg.EarlyTimers, TimersWhenBlocked: cfg.TimersWhenBlocked, Schedule: schedule, Kind: b.kind, Location: b.location, Message: b.message,
		Shared: e.mem.sharedSites(), Entries: e.entries(b.upTo),
		Budget: cfg.Budget, Focus: cfg.Focus, Leaks: cfg.Leaks, IgnoreLeak: cfg.IgnoreLeak, Steps: cfg.userSteps(), Parallel: cfg.Parallel, Selection: cfg.Selection,
		ClockBase: timeBase,
	}
	tr.RecordSources()
	return tr
}

// userSteps is the step limit the user set (-steps), 0 when derived.
func (c Config) userSteps() int {
	if c.AdaptiveSteps {
		return 0
	}
	return c.MaxSteps
}

// runPrelude runs the tests named, once each and uncontrolled, as go test
// would before the explored one; what they report is not Period's concern
// (go test reports it), so failures and panics are ignored. They run on one
// processor: they are there for the state they leave, and a data race of
// theirs that the runtime detects ("concurrent map writes") would kill the
// process that confirms or minimises another test's bug.
func runPrelude(t *testing.T, tests []Test, names []string) {
	if len(names) == 0 {
		return
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for _, tt := range tests {
		if want[tt.Name] && !runFirst(t, tt) {
			return
		}
	}
}

// runFirst runs tt once, uncontrolled, as runPrelude does, and tells
// whether it returned. A test that never returns (a flaky one, on this
// run) must not stop the ones after it: after preludeLimit it is left
// behind (testing does not wait for it at the end), and the caller skips
// the rest.
func runFirst(t *testing.T, tt Test) bool {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	eng.prelude.Store(true)
	defer eng.prelude.Store(false)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t.Run(tt.Name, func(t *testing.T) {
			defer func() { recover() }()
			tt.F(t)
		})
	}()
	select {
	case <-done:
		return true
	case <-time.After(preludeLimit):
		fmt.Fprintf(os.Stderr, "period: %s, run first as go test would, did not return within %v: the rest of the tests before this one are skipped\n", tt.Name, preludeLimit)
		return false
	}
}

// preludeLimit bounds the real time a test run before the explored one may
// take.
const preludeLimit = 10 * time.Second

// exploreNative re-runs the test without any control: the baseline.
func exploreNative(t *testing.T, tt Test, cfg Config, restores []func(), sum Summary, start time.Time, out *resultWriter) Summary {
	for i := 1; i <= cfg.Budget; i++ {
		for _, r := range restores {
			r()
		}
		// The runner learns which run a dying process was in (a panic in
		// a goroutine kills it).
		out.write(progress{Action: "run", Test: tt.Name, Schedule: i})
		var panicked any
		failed := false
		hang := cfg.NativeHang
		if hang <= 0 {
			hang = defaultNativeHang
		}
		// A run that never returns (a deadlock Go's runtime does not see,
		// because a timer or ticker is still alive) is a hang, as go test
		// would report at its -timeout: say so and end the process, which
		// the runner records (hangLine) before it goes on.
		watch := time.AfterFunc(hang, func() {
			fmt.Fprintf(os.Stderr, "\nperiod: hang at : the test did not return within %v when run natively (go test would wait for its -timeout)\n", hang)
			os.Exit(3)
		})
		t.Run(fmt.Sprintf("%s/s%d", tt.Name, i), func(t *testing.T) {
			defer func() {
				panicked = recover()
				failed = t.Failed()
			}()
			tt.F(t)
		})
		watch.Stop()
		sum.Schedules = i
		var b *BugReport
		if panicked != nil {
			b = &BugReport{Kind: "panic", Schedule: i, Message: fmt.Sprint(panicked)}
		} else if failed {
			b = &BugReport{Kind: "fail", Schedule: i, Message: "the test failed"}
		}
		if b != nil {
			sum.countBuggy(b.Kind)
			sum.Bugs = append(sum.Bugs, *b)
			if !cfg.Continue {
				break
			}
		}
	}
	sum.Elapsed = time.Since(start).Seconds()
	return sum
}

// panicLocation finds the first user frame of a panic stack, as
// trace.ModuleLoc writes it (module-relative file:line, like key-point
// sites): frames of Go's runtime, testing and sync, and of Period's own
// runtime (wherever the build placed its files), are skipped.
func panicLocation(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i := 0; i+1 < len(lines); i++ {
		fn, file := lines[i], lines[i+1]
		if !strings.HasPrefix(file, "\t") || strings.HasPrefix(fn, "\t") {
			continue
		}
		if isPeriodFrame(fn) || strings.HasPrefix(fn, "panic(") {
			continue
		}
		loc := strings.TrimSpace(file)
		if k := strings.LastIndex(loc, " +0x"); k >= 0 {
			loc = loc[:k]
		}
		if strings.Contains(loc, "/src/runtime/") || strings.Contains(loc, "/src/testing/") || strings.Contains(loc, "/src/sync/") {
			continue
		}
		return trace.ModuleLoc(loc)
	}
	return ""
}

// isPeriodFrame tells whether a stack line names a function of Period's runtime.
func isPeriodFrame(fn string) bool {
	fn = strings.TrimPrefix(fn, "created by ")
	return strings.HasPrefix(fn, "github.com/period-dev/period/rt.")
}
