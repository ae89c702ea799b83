package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/period-dev/period/rt"
	"github.com/period-dev/period/strategy"
)

// Pool bounds the processes Period runs at once (period test -p N): test
// processes and package builds each take a slot while they run.
type Pool struct{ slots chan struct{} }

// NewPool returns a pool of n slots (at least 1).
func NewPool(n int) *Pool { return &Pool{slots: make(chan struct{}, max(n, 1))} }

// Size is the number of slots.
func (p *Pool) Size() int { return cap(p.slots) }

// Do runs f in a slot, waiting for one; it fails only if ctx ends first.
func (p *Pool) Do(ctx context.Context, f func()) error {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-p.slots }()
	f()
	return nil
}

// runPooled explores each test in processes of its own, as many at once as
// opts.Pool allows; the results come in the order of tests.
func runPooled(ctx context.Context, b Binary, opts Options, tests []string, deadline time.Time) ([]Result, error) {
	pool := opts.Pool
	results := make([]*Result, len(tests))
	errs := make([]error, len(tests))
	var wg sync.WaitGroup
	for i, t := range tests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := opts
			o.Pool = nil
			o.Confirm = false // once all are explored (confirm)
			o.Config.Run, o.Only = "^"+regexp.QuoteMeta(t)+"$", t
			if !deadline.IsZero() {
				o.Timeout = max(time.Until(deadline), time.Millisecond)
			}
			if (opts.Workers > 1 || opts.Resume != "") && !opts.Fresh && CanSplit(o.Config) {
				r, err := exploreSplit(ctx, b, o, t, pool, opts.Workers, deadline)
				if err == nil {
					results[i] = &r
					return
				}
				if errors.Is(err, context.Canceled) || errors.Is(err, errResume) {
					errs[i] = err
					return
				}
				o.Progress("%s: split exploration failed (%v); exploring in one process", t, err)
				if !deadline.IsZero() {
					o.Timeout = max(time.Until(deadline), time.Millisecond)
				}
			}
			var rs []Result
			var err error
			if perr := pool.Do(ctx, func() { rs, err = Run(ctx, b, o) }); perr != nil {
				err = perr
			}
			if errors.Is(err, errProcessFailed) {
				// Its process died before a test started: a TestMain
				// that listens on a fixed port (grpc-gateway's
				// integration tests) fails beside the package's other
				// processes. go test runs one process per package: so
				// does this test now, alone in the directory.
				o.Progress("%s: the test process failed before the test started (%s); exploring it again alone in the package directory", t, strings.TrimPrefix(firstLine(err.Error()), errProcessFailed.Error()+": "))
				var r Result
				if r, err = exploreAlone(ctx, b, o, t, deadline); err == nil {
					rs = []Result{r}
				}
			}
			if errors.Is(err, context.Canceled) && len(rs) == 0 {
				// Interrupted before it started: say so, as for the others.
				rs, err = []Result{{Summary: rt.Summary{Action: "summary", Package: b.Package, Test: t, Strategy: o.Config.Strategy, Seed: o.Config.Seed, Bound: o.Config.Bound, Interrupted: true}}}, nil
			}
			if err != nil {
				errs[i] = err
				return
			}
			if len(rs) > 0 {
				rs[0].firstRuns = []int{1} // one process for the test alone
				results[i] = &rs[0]
			}
		}()
	}
	wg.Wait()
	var out []Result
	for i := range tests {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if results[i] != nil {
			out = append(out, *results[i])
		}
	}
	if ctx.Err() != nil {
		for i := range out {
			out[i].Interrupted = true // its verdicts cannot be confirmed now
		}
		return out, nil
	}
	confirmAll(ctx, b, opts, out, deadline)
	return out, nil
}

// CanSplit tells whether the schedules of one test under cfg can be split
// over processes with the results of one process: a seeded strategy whose
// run i depends only on the seed, i and a state earlier runs rarely change
// (strategy.Seeker: random, pct, ppct), without -parallel (whose runs depend
// on timing) or -fresh.
func CanSplit(cfg rt.Config) bool {
	if cfg.Strategy == "native" || cfg.Parallel || cfg.Replay != "" || cfg.Fresh != "" || cfg.TraceRun != 0 || len(cfg.Skip) > 0 {
		return false
	}
	st, err := strategy.New(cfg.Strategy, strategy.Options{Seed: cfg.Seed, Bound: cfg.Bound, Budget: cfg.Budget, Focus: cfg.Focus})
	if err != nil {
		return false
	}
	_, ok := st.(strategy.Seeker)
	return ok
}

// splitLine is what a split process reports of one schedule (rt.splitLine).
type splitLine struct {
	Action       string
	Test         string
	Schedule     int
	Steps        int
	Forced       int
	Cut          bool
	Uncontrolled int
	AbandonedWhy string
	Kinds        []string
	Bugs         []rt.BugReport
	Describe     string
	Changed      bool
	End          bool
	Exhausted    bool
	Only         bool  // schedule 1 had no alternative at any step: the test's only schedule
	ClockBase    int64 // where schedule 1's clock started, if it read the clock
}

// splitFirstRound is how many schedules each worker runs in the first
// round after schedule 1 (which always changes the state: it sets the step
// limit, and runs alone); a round in which no schedule changed the state
// makes the next one splitGrowth times longer, up to splitMaxRound. A round
// costs a process start per worker; a change in it discards the schedules
// after the change.
const (
	splitFirstRound = 8
	splitGrowth     = 4
	splitMaxRound   = 1 << 16
)

// exploreSplit explores test with its schedules spread over workers
// processes at once, and returns what one process exploring them in order
// would have: the same schedules, bugs (each at its schedule number) and
// replay files. It goes in rounds from a state file (see rt/split.go): in
// a round, worker w runs schedules c+1+w, c+1+w+workers, ... from the
// state after schedule c; the round keeps the schedules up to the first
// that changed the state or ended the exploration (every schedule before
// it started from the right state, and so did it), and the next round
// starts from the state after it. Once the first schedules have taught the
// exploration what they do (shared memory sites, goroutines, PCT's run
// length), schedules stop changing it and rounds keep everything they ran.
func exploreSplit(ctx context.Context, b Binary, opts Options, test string, pool *Pool, workers int, deadline time.Time) (Result, error) {
	work, err := os.MkdirTemp("", "period-split-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(work)
	if err := os.MkdirAll(opts.Config.OutDir, 0o755); err != nil {
		return Result{}, err
	}
	started := time.Now()
	c := opts.Config
	total := Result{Summary: rt.Summary{Action: "summary", Package: b.Package, Test: test, Strategy: c.Strategy, Seed: c.Seed, Bound: c.Bound}}
	state := filepath.Join(work, "start.json") // absent: the exploration's start
	committed, chunk := 0, splitFirstRound
	var res *resumeFile
	if opts.Resume != "" {
		var err error
		if res, err = loadResume(opts.Resume, b.Package, test, c); err != nil {
			return Result{}, fmt.Errorf("%w: %v", errResume, err)
		}
		if res.Committed > 0 {
			if err := os.WriteFile(state, res.State, 0o644); err != nil {
				return Result{}, err
			}
			total, committed, chunk = res.Total, res.Committed, res.Chunk
			opts.Progress("%s: resuming after schedule %d (-resume)", test, committed)
			if res.Ended {
				return total, nil
			}
		}
	}
	prevElapsed := total.Elapsed
	sessionStart := committed
	for round := 0; committed < c.Budget; round++ {
		n := min(c.Budget-committed, chunk*workers)
		if committed == 0 {
			n = 1
		}
		type worker struct {
			dir   string
			cfg   rt.Config
			out   []byte
			err   error
			lines []splitLine
		}
		ws := make([]*worker, min(workers, n))
		var wg sync.WaitGroup
		for w := range ws {
			cfg := c
			cfg.Package, cfg.Dir = b.Package, b.Dir
			cfg.Run = "^" + regexp.QuoteMeta(test) + "$"
			cfg.Start = state
			cfg.Runs = nil
			for j := committed + 1 + w; j <= committed+n; j += workers {
				cfg.Runs = append(cfg.Runs, j)
			}
			total.firstRuns = append(total.firstRuns, cfg.Runs[0])
			dir := filepath.Join(work, fmt.Sprintf("r%d-w%d", round, w))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return Result{}, err
			}
			cfg.OutDir, cfg.StateOut, cfg.Results = dir, filepath.Join(dir, "state.json"), filepath.Join(dir, "results.jsonl")
			// Each worker gets its share of the processors: one exploring
			// process keeps more than one busy with the collector and
			// hand-offs between threads, which then compete with the
			// other workers' schedules instead of adding to them
			// (docs/parallel.md).
			cfg.Procs = max(1, runtime.NumCPU()/len(ws))
			wk := &worker{dir: dir, cfg: cfg}
			ws[w] = wk
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := pool.Do(ctx, func() {
					if w == 0 { // one worker speaks for the round
						defer watchProgress(wk.cfg.Results, wk.cfg.Budget, startingWhat(test, wk.cfg, b.Dir, ctx.Value(dirLockedKey{}) == b.Dir), opts.Progress)()
					}
					wk.out, wk.err = runChild(ctx, b, wk.cfg, deadline)
				}); err != nil {
					wk.err = err
				}
				if wk.err == nil {
					wk.lines, wk.err = readSplit(wk.cfg.Results)
				}
			}()
		}
		wg.Wait()
		recs := map[int]splitLine{}
		owner := map[int]*worker{}
		msgs := map[failKey]*failMsg{}
		for _, wk := range ws {
			if errors.Is(wk.err, errTimeout) || errors.Is(wk.err, context.Canceled) {
				// -timeout or Ctrl-C: the schedules committed so far are the result.
				opts.Progress("%s: stopped after %d schedules", test, committed)
				total.TimedOut, total.Interrupted = errors.Is(wk.err, errTimeout), errors.Is(wk.err, context.Canceled)
				return total, nil
			}
			if wk.err != nil {
				return Result{}, wk.err
			}
			for _, l := range wk.lines {
				recs[l.Schedule], owner[l.Schedule] = l, wk
			}
			for k, m := range parseFailures(wk.out, b.Dir) {
				msgs[k] = m
			}
		}
		last, end := committed, false
		nb := len(total.Bugs)
		for j := committed + 1; j <= committed+n; j++ {
			l, ok := recs[j]
			if !ok {
				return Result{}, fmt.Errorf("no report of schedule %d", j)
			}
			if l.Exhausted {
				total.Exhausted, end = true, true
				break
			}
			if err := addSplit(&total, l, opts.Config.OutDir); err != nil {
				return Result{}, err
			}
			last = j
			total.Exhausted = total.Exhausted || l.Only
			if l.Changed || l.End {
				end = l.End
				break
			}
		}
		enrich(&rt.Summary{Test: test, Bugs: total.Bugs[nb:]}, msgs)
		if end {
			if res != nil {
				total.Elapsed = prevElapsed + time.Since(started).Seconds()
				res.save(total, last, chunk, "", true)
			}
			break
		}
		if last == committed+n && committed > 0 {
			chunk = min(splitGrowth*chunk, splitMaxRound)
		}
		// The state after the last schedule kept: its worker stopped there.
		next := filepath.Join(work, fmt.Sprintf("state-%d.json", round))
		if err := copyFile(owner[last].cfg.StateOut, next); err != nil {
			return Result{}, err
		}
		for _, wk := range ws {
			os.RemoveAll(wk.dir)
		}
		state, committed = next, last
		if res != nil {
			total.Elapsed = prevElapsed + time.Since(started).Seconds()
			if err := res.save(total, committed, chunk, next, false); err != nil {
				return Result{}, err
			}
		}
		if n >= 1000 {
			// The rate of this session; the time left at that rate.
			rate := float64(committed-sessionStart) / time.Since(started).Seconds()
			left := time.Duration(float64(c.Budget-committed) / rate * float64(time.Second)).Round(time.Second)
			opts.Progress("%s: %d of %d schedules, %.0f schedules/s with %d processes, about %v left", test, committed, c.Budget, rate, workers, left)
		}
	}
	total.Elapsed = prevElapsed + time.Since(started).Seconds()
	return total, nil
}

// resumeFile is what -resume DIR keeps of one test's split exploration
// after every round: the schedules kept so far, their total, and the state
// the next round starts from. A later run with the same flags (the budget
// may be larger) continues from there.
type resumeFile struct {
	path      string
	Key       string // the flags that decide the schedules
	Committed int
	Chunk     int
	Ended     bool // a bug without -continue, a cut or abandoned first schedule, or exhausted
	Total     Result
	State     json.RawMessage
}

// resumeKey renders the configuration that decides a test's schedules.
func resumeKey(c rt.Config) string {
	k, _ := json.Marshal(struct {
		Strategy         string
		Seed             int64
		Bound            int
		Continue, NoRace bool
		Focus, Leaks     string
		IgnoreLeak       []string
		MaxSteps         int
		AdaptiveSteps    bool
		EarlyTimers      time.Duration `json:",omitempty"`
		TimersBlocked    bool          `json:",omitempty"`
	}{c.Strategy, c.Seed, c.Bound, c.Continue, c.NoRace, c.Focus, c.Leaks, c.IgnoreLeak, c.MaxSteps, c.AdaptiveSteps, c.EarlyTimers, c.TimersWhenBlocked})
	return string(k)
}

// errResume is a -resume directory that cannot be continued: an error, not
// a reason to explore from the start.
var errResume = errors.New("-resume")

func loadResume(dir, pkg, test string, c rt.Config) (*resumeFile, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	name := regexp.MustCompile(`[^A-Za-z0-9_.-]+`).ReplaceAllString(pkg+"."+test, "_") + ".resume.json"
	r := &resumeFile{path: filepath.Join(dir, name), Key: resumeKey(c)}
	data, err := os.ReadFile(r.path)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	var old resumeFile
	if err := json.Unmarshal(data, &old); err != nil {
		return nil, fmt.Errorf("%s: %v", r.path, err)
	}
	if old.Key != r.Key {
		return nil, fmt.Errorf("%s was explored with other flags (%s, now %s)", r.path, old.Key, r.Key)
	}
	old.path = r.path
	return &old, nil
}

// save records the exploration after committed schedules; state is the
// state file the next round starts from.
func (r *resumeFile) save(total Result, committed, chunk int, state string, ended bool) error {
	r.Total, r.Committed, r.Chunk, r.Ended = total, committed, chunk, ended
	if state != "" {
		data, err := os.ReadFile(state)
		if err != nil {
			return err
		}
		r.State = data
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	tmp := r.path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, r.path)
}

// addSplit adds one kept schedule to the exploration's total; its new bugs'
// replay files move to dir.
func addSplit(total *Result, l splitLine, dir string) error {
	total.Schedules = l.Schedule
	total.Steps += l.Steps
	total.Forced += l.Forced
	if l.Cut {
		total.Cut++
	}
	total.Uncontrolled += l.Uncontrolled
	if l.AbandonedWhy != "" {
		total.Abandoned++
		total.AbandonedWhy = l.AbandonedWhy
	}
	for i, k := range l.Kinds {
		if slices.Contains(l.Kinds[:i], k) {
			continue
		}
		if total.Buggy == nil {
			total.Buggy = map[string]int{}
		}
		total.Buggy[k]++
	}
	if l.Schedule == 1 && l.ClockBase != 0 {
		total.firstClockBase = l.ClockBase
	}
	for _, bug := range l.Bugs {
		if bug.Replay != "" && filepath.IsAbs(bug.Replay) {
			dst := filepath.Join(dir, filepath.Base(bug.Replay))
			if err := copyFile(bug.Replay, dst); err != nil {
				return err
			}
			bug.Replay = dst
		}
		total.Bugs = append(total.Bugs, bug)
	}
	if total.Schedule == "" && len(l.Bugs) > 0 {
		total.Schedule = l.Describe
	}
	return nil
}

func readSplit(path string) ([]splitLine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []splitLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var l splitLine
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Action == "sched" {
			out = append(out, l)
		}
	}
	return out, sc.Err()
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := dst + ".tmp"
	out, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// MergeCost measures what the command of a split exploration spends on each
// schedule a worker ran, outside the workers: the two lines package testing
// prints for it (outFilter), its "sched" line read back (readSplit) and
// added to the total (addSplit), which exploreSplit does one schedule at a
// time whatever the number of workers. It runs that code on n synthetic
// schedules that found nothing (the common case) and returns the seconds
// per schedule: period bench -scaling's merge term.
func MergeCost(n int) (float64, error) {
	if n < 1 {
		return 0, errors.New("MergeCost: n must be at least 1")
	}
	dir, err := os.MkdirTemp("", "period-mergecost-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	var lines, out bytes.Buffer
	enc := json.NewEncoder(&lines)
	for j := 1; j <= n; j++ {
		if err := enc.Encode(splitLine{Action: "sched", Test: "TestX", Schedule: j, Steps: 40}); err != nil {
			return 0, err
		}
		fmt.Fprintf(&out, "=== RUN   TestPeriodDriver/TestX/s%d\n    --- PASS: TestPeriodDriver/TestX/s%d (0.00s)\n", j, j)
	}
	path := filepath.Join(dir, "results.jsonl")
	if err := os.WriteFile(path, lines.Bytes(), 0o644); err != nil {
		return 0, err
	}
	start := time.Now()
	var f outFilter
	f.Write(out.Bytes())
	f.done()
	ls, err := readSplit(path)
	if err != nil {
		return 0, err
	}
	recs := map[int]splitLine{}
	for _, l := range ls {
		recs[l.Schedule] = l
	}
	var total Result
	for j := 1; j <= n; j++ {
		if err := addSplit(&total, recs[j], dir); err != nil {
			return 0, err
		}
	}
	if total.Schedules != n {
		return 0, fmt.Errorf("MergeCost: %d schedules merged, want %d", total.Schedules, n)
	}
	return time.Since(start).Seconds() / float64(n), nil
}
