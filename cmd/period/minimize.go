package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/period-dev/period/instrument"
	"github.com/period-dev/period/internal/report"
	"github.com/period-dev/period/internal/runner"
	"github.com/period-dev/period/trace"
)

// defaultMinimizeBudget caps the candidate schedules one minimisation runs:
// all run in one test process, so a few hundred take about a second on the
// examples, and a long record stops shrinking at the cap instead of taking
// minutes.
const defaultMinimizeBudget = 300

// replayTarget is a replay file with the test binary of the package it
// names, built as when the bug was found (tags, instrumented dependencies),
// for period replay and period minimize.
type replayTarget struct {
	file           string // absolute path of the replay file
	trace          *trace.Trace
	work           string // scratch directory; remove with close
	binary         runner.Binary
	uninstrumented []string
}

func (r *replayTarget) close() { os.RemoveAll(r.work) }

// openReplay reads the replay file arg and instruments and builds its package.
func openReplay(ctx context.Context, arg string) (*replayTarget, error) {
	file, err := filepath.Abs(arg)
	if err != nil {
		return nil, err
	}
	tr, err := trace.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(tr.Dir); err != nil {
		return nil, fmt.Errorf("the replay's package directory %s: %v", tr.Dir, err)
	}
	work, err := os.MkdirTemp("", "period-replay-")
	if err != nil {
		return nil, err
	}
	r := &replayTarget{file: file, trace: tr, work: work}
	cache, err := instrument.DefaultBinCache()
	if err != nil {
		r.close()
		return nil, err
	}
	pkgs, err := instrument.Prepare(instrument.PrepareOptions{Dir: tr.Dir, Patterns: []string{"."}, WorkDir: filepath.Join(work, "src"),
		Tags: tr.Tags, Instrument: tr.Instrument, Uninstrumented: tr.Uninstrumented, BinCache: cache})
	if err == nil && len(pkgs) != 1 {
		err = fmt.Errorf("%s holds no test package", tr.Dir)
	}
	if err != nil {
		r.close()
		return nil, err
	}
	pkg := pkgs[0]
	bin := filepath.Join(work, pkg.BinaryName())
	if err := pkg.Build(ctx, bin); err != nil {
		r.close()
		return nil, err
	}
	r.binary = runner.Binary{Path: bin, Dir: pkg.Dir, Package: pkg.ImportPath, Tests: pkg.Tests}
	r.uninstrumented = pkg.Uninstrumented
	return r, nil
}

// cmdMinimize is period minimize: shrink the schedule of a replay file and
// write the result beside it.
func cmdMinimize(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("period minimize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print the summary of the minimised replay as JSON")
	verbose := fs.Bool("v", false, "print the full interleaving")
	budget := fs.Int("budget", defaultMinimizeBudget, "run at most `n` candidate schedules")
	timeout := fs.Duration("timeout", 10*time.Minute, "give up after `d`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitError
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: period minimize [-budget n] [-json] [-v] FILE")
		return exitError
	}
	target, err := openReplay(ctx, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	defer target.close()
	file, tr, bin := target.file, target.trace, target.binary
	opts := runner.Options{Timeout: *timeout}
	opts.Config.NoRace = tr.NoRace
	m, err := runner.Minimize(ctx, bin, file, *budget, opts)
	if err != nil {
		fmt.Fprintf(stderr, "period: %s: %v\n", file, err)
		return exitError
	}
	min, err := trace.ReadFile(m.File)
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	p := &report.Printer{W: stdout, JSON: *jsonOut, Verbose: *verbose}
	s := report.JSONSummary{Action: "summary", Package: min.Package, Test: min.Test, Strategy: "minimize:" + min.Strategy, Seed: min.Seed, Bound: min.Bound,
		Schedules: m.Tries, Steps: m.After.Steps}
	b := report.JSONBug{Kind: min.Kind, Schedule: min.Schedule, Message: min.Message, Location: min.Location, Replay: file, Created: m.Created, CreatedBy: m.CreatedBy}
	report.SetMinimized(&b, m)
	s.Bugs = []report.JSONBug{b}
	p.Result(s)
	return exitBug
}

// minimizeBugs shrinks the schedule of every bug of the summaries of one
// package (test's -minimize), and attaches the minimised files to them.
func minimizeBugs(ctx context.Context, bin runner.Binary, ss []report.JSONSummary, budget int, opts runner.Options, p *report.Printer) {
	var files []string
	for _, s := range ss {
		for _, b := range s.Bugs {
			if _, err := os.Stat(b.Replay); b.Replay != "" && err == nil {
				files = append(files, b.Replay)
			}
		}
	}
	if len(files) == 0 {
		return
	}
	done := runner.MinimizeAll(ctx, bin, files, budget, opts)
	for i := range ss {
		s := &ss[i]
		for j := range s.Bugs {
			b := &s.Bugs[j]
			res, ok := done[b.Replay]
			if !ok {
				continue
			}
			if res.Err != nil {
				if !errors.Is(res.Err, runner.ErrNotMinimizable) {
					p.Event("progress", s.Package, "%s: %s not minimised: %v", s.Test, b.Kind, res.Err)
				}
				continue
			}
			m := res.Minimized
			report.SetMinimized(b, m)
			p.Event("progress", s.Package, "%s: %s minimised from %d to %d switches in %d tries", s.Test, b.Kind, m.Before.Switches, m.After.Switches, m.Tries)
		}
	}
}

// cmdView is period view: write the timeline page of a replay file.
func cmdView(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("period view", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the page to `file` (default: the replay file with extension .html)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitError
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: period view [-o file.html] FILE")
		return exitError
	}
	file, err := filepath.Abs(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	page := *out
	if page == "" {
		page = strings.TrimSuffix(file, filepath.Ext(file)) + ".html"
	}
	if err := writeView(file, page, nil); err != nil {
		fmt.Fprintf(stderr, "period: %v\n", err)
		return exitError
	}
	fmt.Fprintf(stdout, "wrote %s\n", page)
	return exitOK
}

// writeView writes the timeline page of the replay file to page.
func writeView(file, page string, shrink *report.Shrink) error {
	tr, err := trace.ReadFile(file)
	if err != nil {
		return err
	}
	f, err := os.Create(page)
	if err != nil {
		return err
	}
	if err := report.WriteHTML(f, tr, file, shrink); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeViews writes a page per bug of s into dir (test's -html): of the
// minimised schedule when there is one.
func writeViews(dir string, s *report.JSONSummary, p *report.Printer) {
	for _, b := range s.Bugs {
		file := b.Minimized
		if file == "" {
			file = b.Replay
		}
		if file == "" {
			continue
		}
		page := filepath.Join(dir, strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))+".html")
		if err := writeView(file, page, b.Shrink); err != nil {
			p.Event("note", s.Package, "%s: no timeline page: %v", s.Test, err)
			continue
		}
		p.Event("progress", s.Package, "%s: timeline page %s", s.Test, page)
	}
}
