package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/period-dev/period/rt"
	"github.com/period-dev/period/trace"
)

// Minimized is the outcome of shrinking one replay file.
type Minimized struct {
	File          string     // the minimised replay file, beside the original
	Before, After trace.Cost // of the original record and of the minimised one
	Tries         int        // candidate schedules run
	// Leaks and deadlocks: the go statement that created the goroutine
	// at the bug's location, and the function holding it.
	Created, CreatedBy string
}

// MinFileName is where the minimised record of file goes: NAME.min.EXT
// beside it.
func MinFileName(file string) string {
	ext := filepath.Ext(file)
	base := strings.TrimSuffix(file, ext)
	if strings.HasSuffix(base, ".min") {
		return file // minimising a minimised file rewrites it
	}
	return base + ".min" + ext
}

// maxMinimizeSteps is the longest record minimised.
const maxMinimizeSteps = 500000

// ErrNotMinimizable reports records that are not shrunk: hangs (their
// length is the bug), schedules that killed the test process, and records
// too long to shrink in seconds.
var ErrNotMinimizable = errors.New("not minimised")

// Minimize shrinks the failing schedule of the replay file with at most
// budget candidate runs in one process of b (see rt's minimize.go), then
// replays the result strictly in a fresh process: it is written beside file
// only when that replay shows the same bug (kind and location) without
// diverging. opts supplies the exploration's race and leak settings.
func Minimize(ctx context.Context, b Binary, file string, budget int, opts Options) (Minimized, error) {
	return MinimizeAll(ctx, b, []string{file}, budget, opts)[file].result()
}

// MinimizeResult is the outcome of one file's minimisation (MinimizeAll).
type MinimizeResult struct {
	Minimized
	Err error
}

func (r MinimizeResult) result() (Minimized, error) { return r.Minimized, r.Err }

// shrunk is a minimisation between its candidates' process and the replay
// that keeps its result.
type shrunk struct {
	file string
	m    Minimized
	tr   *trace.Trace // the original record
	min  *trace.Trace // the shrunk one, at cand
	cand string
}

// MinimizeAll minimises each replay file as Minimize does: its candidates
// in one process, then the strict replay of the shrunk record in a fresh
// one, each after the tests go test runs before it.
func MinimizeAll(ctx context.Context, b Binary, files []string, budget int, opts Options) map[string]MinimizeResult {
	out := map[string]MinimizeResult{}
	work, err := os.MkdirTemp("", "period-min-")
	if err != nil {
		for _, f := range files {
			out[f] = MinimizeResult{Err: err}
		}
		return out
	}
	defer os.RemoveAll(work)
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	var pending []*shrunk
	for i, f := range files {
		sh, err := shrink(ctx, b, f, budget, opts, filepath.Join(work, strconv.Itoa(i)), timeout)
		if err != nil {
			out[f] = MinimizeResult{Minimized: sh.m, Err: err}
			continue
		}
		pending = append(pending, sh)
	}
	for _, sh := range pending {
		cfg := rt.Config{Replay: sh.cand, Strategy: sh.tr.Strategy, Seed: sh.tr.Seed, Bound: sh.tr.Bound,
			OutDir: filepath.Dir(sh.cand), MaxSteps: len(sh.min.Entries) + 1000, NoRace: opts.Config.NoRace, Leaks: opts.Config.Leaks, IgnoreLeak: opts.Config.IgnoreLeak,
			Selection: sh.tr.Selection, Prelude: TestsBefore(b.Tests, sh.tr.Selection, sh.tr.Test), Args: sh.tr.Args}
		rs, err := Run(ctx, b, Options{Config: cfg, Timeout: timeout})
		if err != nil {
			out[sh.file] = MinimizeResult{Minimized: sh.m, Err: err}
			continue
		}
		var s rt.Summary
		for _, r := range rs {
			if r.Test == sh.tr.Test {
				s = r.Summary
			}
		}
		out[sh.file] = keep(sh, s)
	}
	return out
}

// shrinkable reads file and tells whether its record can be shrunk.
func shrinkable(file string) (*shrunk, error) {
	tr, err := trace.ReadFile(file)
	if err != nil {
		return &shrunk{}, err
	}
	sh := &shrunk{file: file, tr: tr, m: Minimized{File: MinFileName(file), Before: trace.CostOf(tr.Entries)}}
	if tr.Kind == "hang" || strings.HasPrefix(tr.Message, "the test process died") || sh.m.Before.Steps == 0 {
		return sh, fmt.Errorf("%w: a %s is kept as recorded", ErrNotMinimizable, tr.Kind)
	}
	if sh.m.Before.Steps > maxMinimizeSteps {
		// Too few candidates of this length fit rt's step cap to shrink it.
		return sh, fmt.Errorf("%w: %d steps are too many to minimise", ErrNotMinimizable, sh.m.Before.Steps)
	}
	return sh, nil
}

// shrink runs the candidates of file's minimisation in one process of b,
// in dir.
func shrink(ctx context.Context, b Binary, file string, budget int, opts Options, dir string, timeout time.Duration) (*shrunk, error) {
	sh, err := shrinkable(file)
	if err != nil {
		return sh, err
	}
	tr := sh.tr
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return sh, err
	}
	sh.cand = filepath.Join(dir, "min.period")
	// After the tests go test runs first: the record was confirmed in the
	// state they leave, and a shrunk one recorded in another (the test
	// alone) diverged in the replay that keeps it (hystrix-go's circuits,
	// which earlier tests create).
	cfg := rt.Config{Replay: file, Minimize: budget, MinimizeOut: sh.cand, Strategy: tr.Strategy, Seed: tr.Seed, Bound: tr.Bound,
		OutDir: dir, MaxSteps: len(tr.Entries) + 1000, NoRace: opts.Config.NoRace, Leaks: opts.Config.Leaks, IgnoreLeak: opts.Config.IgnoreLeak,
		Selection: tr.Selection, Prelude: TestsBefore(b.Tests, tr.Selection, tr.Test), Args: tr.Args}
	rs, err := Run(ctx, b, Options{Config: cfg, Timeout: timeout})
	if err != nil {
		return sh, err
	}
	for _, r := range rs {
		sh.m.Tries += r.Schedules
		for _, xb := range r.Bugs {
			sh.m.Created, sh.m.CreatedBy = xb.Created, xb.CreatedBy
		}
	}
	if sh.min, err = trace.ReadFile(sh.cand); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			// Nothing reproduced, the record's own replay included (real
			// I/O decided where a networked test's goroutines were).
			return sh, fmt.Errorf("no candidate schedule of %d tried reproduced the %s, the recorded one included (the replay file stays as found)", sh.m.Tries, tr.Kind)
		}
		return sh, fmt.Errorf("the minimisation wrote no record: %v", err)
	}
	return sh, nil
}

// keep writes sh's shrunk record beside its file if s, the summary of its
// strict replay in a fresh process, shows the same bug without diverging.
func keep(sh *shrunk, s rt.Summary) MinimizeResult {
	why := fmt.Sprintf("%d bugs", len(s.Bugs))
	if len(s.Bugs) > 0 {
		why = fmt.Sprintf("a %s at %s", s.Bugs[0].Kind, s.Bugs[0].Location)
	}
	confirmed := false
	if s.Diverged != "" {
		why = "diverged: " + s.Diverged
	} else {
		for _, xb := range s.Bugs {
			if xb.Kind == sh.tr.Kind && xb.Location == sh.tr.Location {
				confirmed = true
				if xb.Kind == "fail" {
					sh.min.Message = xb.Message
				}
				break
			}
		}
	}
	if !confirmed {
		return MinimizeResult{Minimized: sh.m, Err: fmt.Errorf("the shrunk schedule did not replay to the same bug in a fresh process (%s); keeping the original", why)}
	}
	sh.m.After = trace.CostOf(sh.min.Entries)
	if err := sh.min.WriteFile(sh.m.File); err != nil {
		return MinimizeResult{Minimized: sh.m, Err: err}
	}
	return MinimizeResult{Minimized: sh.m}
}
