package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	tr, err := trace.ReadFile(file)
	if err != nil {
		return Minimized{}, err
	}
	m := Minimized{File: MinFileName(file), Before: trace.CostOf(tr.Entries)}
	if tr.Kind == "hang" || strings.HasPrefix(tr.Message, "the test process died") || m.Before.Steps == 0 {
		return m, fmt.Errorf("%w: a %s is kept as recorded", ErrNotMinimizable, tr.Kind)
	}
	if m.Before.Steps > maxMinimizeSteps {
		// Too few candidates of this length fit rt's step cap to shrink it.
		return m, fmt.Errorf("%w: %d steps are too many to minimise", ErrNotMinimizable, m.Before.Steps)
	}
	work, err := os.MkdirTemp("", "period-min-")
	if err != nil {
		return m, err
	}
	defer os.RemoveAll(work)
	cand := filepath.Join(work, "min.period")
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	// The candidates run one after another in one process, each after the
	// state the ones before left, as an exploration's schedules do: the
	// tests go test runs first are not run before them (their real time
	// was most of a minimisation in suites that sleep); the replay that
	// keeps the result runs after them.
	cfg := rt.Config{Replay: file, Minimize: budget, MinimizeOut: cand, Strategy: tr.Strategy, Seed: tr.Seed, Bound: tr.Bound,
		OutDir: work, MaxSteps: len(tr.Entries) + 1000, NoRace: opts.Config.NoRace, Leaks: opts.Config.Leaks, IgnoreLeak: opts.Config.IgnoreLeak}
	rs, err := Run(ctx, b, Options{Config: cfg, Timeout: timeout})
	if err != nil {
		return m, err
	}
	for _, r := range rs {
		m.Tries += r.Schedules
		for _, xb := range r.Bugs {
			m.Created, m.CreatedBy = xb.Created, xb.CreatedBy
		}
	}
	min, err := trace.ReadFile(cand)
	if err != nil {
		return m, fmt.Errorf("the minimisation wrote no record: %v", err)
	}
	cfg = rt.Config{Replay: cand, Strategy: tr.Strategy, Seed: tr.Seed, Bound: tr.Bound,
		OutDir: work, MaxSteps: len(min.Entries) + 1000, NoRace: opts.Config.NoRace, Leaks: opts.Config.Leaks, IgnoreLeak: opts.Config.IgnoreLeak,
		Prelude: testsBefore(b.Tests, tr.Test)}
	rs, err = Run(ctx, b, Options{Config: cfg, Timeout: timeout})
	if err != nil {
		return m, err
	}
	confirmed := false
	why := "no result"
	for _, r := range rs {
		if r.Test != tr.Test {
			continue
		}
		why = fmt.Sprintf("%d bugs", len(r.Bugs))
		if len(r.Bugs) > 0 {
			why = fmt.Sprintf("a %s at %s", r.Bugs[0].Kind, r.Bugs[0].Location)
		}
		if r.Diverged != "" {
			why = "diverged: " + r.Diverged
			continue
		}
		for _, xb := range r.Bugs {
			if xb.Kind == tr.Kind && xb.Location == tr.Location {
				confirmed = true
				if xb.Kind == "fail" {
					min.Message = xb.Message
				}
				break
			}
		}
	}
	if !confirmed {
		return m, fmt.Errorf("the shrunk schedule did not replay to the same bug in a fresh process (%s); keeping the original", why)
	}
	m.After = trace.CostOf(min.Entries)
	if err := min.WriteFile(m.File); err != nil {
		return m, err
	}
	return m, nil
}
