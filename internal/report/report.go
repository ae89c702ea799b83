// Package report prints exploration results: readable text for people, one
// JSON object per line for scripts (-json).
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/period-dev/period/internal/runner"
	"github.com/period-dev/period/trace"
)

// Printer writes results in the chosen format.
type Printer struct {
	W       io.Writer
	JSON    bool
	Verbose bool
	// Live receives "progress" events as they happen, when W holds output
	// back (packages explored in parallel print in order): -json progress
	// lines, and, without -json, the progress lines meant for stderr.
	// Nil: W for -json, nothing without it unless Verbose.
	Live io.Writer
}

// LockedWriter serialises writes from goroutines to one writer.
type LockedWriter struct {
	mu sync.Mutex
	W  io.Writer
}

func (l *LockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.W.Write(b)
}

// JSONSummary is the "summary" object of -json output: the contract scripts rely on.
type JSONSummary struct {
	Action         string // "summary"
	Package        string
	Test           string
	Strategy       string
	Seed           int64
	Bound          int
	Schedules      int
	Steps          int
	Elapsed        float64
	Bugs           []JSONBug
	Schedule       string   `json:",omitempty"`
	Diverged       string   `json:",omitempty"`
	Exhausted      bool     `json:",omitempty"`
	Uninstrumented []string `json:",omitempty"`
	Uncontrolled   int      `json:",omitempty"` // key points run by goroutines Period did not control
	Unconfirmed    int      `json:",omitempty"` // -parallel: bugs a serial replay did not reproduce (not reported)
	Cut            int      `json:",omitempty"` // schedules stopped at the step limit without a verdict
	Forced         int      `json:",omitempty"` // decisions where fairness overrode the strategy
	Abandoned      int      `json:",omitempty"` // schedules given up: a goroutine waited in uncontrolled code (no verdict)
	AbandonedWhy   string   `json:",omitempty"`
	Fresh          bool     `json:",omitempty"` // explored with one process per schedule (-fresh, or after an unconfirmed verdict)
	TimedOut       bool     `json:",omitempty"` // -timeout ended the exploration before its budget (no verdict for the schedule in flight)
	Interrupted    bool     `json:",omitempty"` // Ctrl-C or SIGTERM stopped it; its bugs are listed unconfirmed
}

// JSONBug is one bug of a summary.
type JSONBug struct {
	Kind     string
	Schedule int
	Message  string
	Location string
	Replay   string
	// Leaks and deadlocks: the go statement (file:line, like Location) that
	// created the goroutine at Location, and the function that executed it.
	Created   string `json:",omitempty"`
	CreatedBy string `json:",omitempty"`
	// Minimized is the replay file of the shrunk schedule (period minimize,
	// or test's -minimize), and Shrink what it took from the original.
	Minimized string  `json:",omitempty"`
	Shrink    *Shrink `json:",omitempty"`
}

// Shrink compares a minimised schedule with the original.
type Shrink struct {
	Before, After trace.Cost // Switches, Steps, Goroutines
	Tries         int        // candidate schedules run
}

// SetMinimized records the outcome of a minimisation on b.
func SetMinimized(b *JSONBug, m runner.Minimized) {
	b.Minimized = m.File
	b.Shrink = &Shrink{Before: m.Before, After: m.After, Tries: m.Tries}
}

// Summary converts a runner result to the JSON contract.
func Summary(r runner.Result, uninstrumented []string) JSONSummary {
	s := JSONSummary{Action: "summary", Package: r.Package, Test: r.Test, Strategy: r.Strategy, Seed: r.Seed, Bound: r.Bound,
		Schedules: r.Schedules, Steps: r.Steps, Elapsed: r.Elapsed, Schedule: r.Schedule, Diverged: r.Diverged,
		Exhausted: r.Exhausted, Uninstrumented: uninstrumented, Uncontrolled: r.Uncontrolled, Unconfirmed: r.Unconfirmed, Cut: r.Cut, Forced: r.Forced, Abandoned: r.Abandoned, AbandonedWhy: r.AbandonedWhy, Fresh: r.Fresh, TimedOut: r.TimedOut, Interrupted: r.Interrupted, Bugs: []JSONBug{}}
	for _, b := range r.Bugs {
		s.Bugs = append(s.Bugs, JSONBug{Kind: b.Kind, Schedule: b.Schedule, Message: b.Message, Location: b.Location, Replay: b.Replay, Created: b.Created, CreatedBy: b.CreatedBy})
	}
	return s
}

// Event prints a progress object (-json) or line (-v).
func (p *Printer) Event(action, pkg, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	w := p.W
	if action == "progress" && p.Live != nil && (p.JSON || !p.Verbose) {
		w = p.Live
	}
	if p.JSON {
		b, _ := json.Marshal(struct{ Action, Package, Output string }{action, pkg, msg})
		fmt.Fprintln(w, string(b))
		return
	}
	if p.Verbose || action == "note" || w == p.Live && w != nil {
		fmt.Fprintf(w, "# %s\n", msg)
	}
}

// Result prints one test's result.
func (p *Printer) Result(s JSONSummary) {
	if p.JSON {
		b, _ := json.Marshal(s)
		fmt.Fprintln(p.W, string(b))
		return
	}
	if len(s.Bugs) == 0 {
		extra := ""
		if s.Exhausted {
			// Exhausted within the strategy's bound: a bug deeper than the
			// bound can still exist.
			extra = ", every schedule within the bound explored"
			if s.Bound > 0 {
				extra = fmt.Sprintf(", every schedule within bound %d explored", s.Bound)
			}
		}
		if s.Diverged != "" {
			fmt.Fprintf(p.W, "--- DIVERGED %s: %s\n", s.Test, s.Diverged)
			return
		}
		if s.Schedules == 0 && (s.Interrupted || s.TimedOut) {
			ran := ""
			if s.Steps > 0 {
				ran = fmt.Sprintf(", which had run %d steps", s.Steps)
			}
			fmt.Fprintf(p.W, "?    %s  not explored (stopped before its first schedule ended%s)\n", s.Test, ran)
			return
		}
		fmt.Fprintf(p.W, "ok   %s  %d schedules, no bug (%s%s, %.2fs)\n", s.Test, s.Schedules, s.Strategy, extra, s.Elapsed)
		p.uncontrolled(s)
		return
	}
	defer p.uncontrolled(s)
	for i, b := range s.Bugs {
		loc := b.Location
		if loc == "" {
			loc = "unknown location"
		}
		if strings.HasPrefix(s.Strategy, "minimize:") {
			fmt.Fprintf(p.W, "--- BUG %s: %s at %s (schedule %d of %s seed %d, minimised in %d runs)\n", s.Test, b.Kind, loc, b.Schedule, strings.TrimPrefix(s.Strategy, "minimize:"), s.Seed, s.Schedules)
		} else if strings.HasPrefix(s.Strategy, "replay:") {
			fmt.Fprintf(p.W, "--- BUG %s: %s at %s (replay of schedule %d, %s seed %d)\n", s.Test, b.Kind, loc, b.Schedule, strings.TrimPrefix(s.Strategy, "replay:"), s.Seed)
		} else {
			fmt.Fprintf(p.W, "--- BUG %s: %s at %s (schedule %d of %d, %s seed %d)\n", s.Test, b.Kind, loc, b.Schedule, s.Schedules, s.Strategy, s.Seed)
		}
		msg := strings.Split(strings.TrimRight(b.Message, "\n"), "\n")
		if !p.Verbose {
			msg = groupGoroutines(msg)
		}
		for _, line := range msg {
			fmt.Fprintf(p.W, "    %s\n", line)
		}
		if i == 0 && s.Schedule != "" {
			sched := s.Schedule
			if !p.Verbose {
				sched = compressSchedule(sched)
			}
			fmt.Fprintf(p.W, "    schedule: %s\n", sched)
		}
		if b.Replay == "" {
			continue
		}
		fmt.Fprintf(p.W, "    replay:   period replay %s\n", b.Replay)
		show := b.Replay
		if b.Minimized != "" {
			show = b.Minimized
			fmt.Fprintf(p.W, "    minimised: period replay %s\n", b.Minimized)
			if sh := b.Shrink; sh != nil && sh.After == sh.Before {
				fmt.Fprintf(p.W, "      no smaller schedule found (%d switches, %d steps, %d goroutines; %d schedules tried)\n",
					sh.Before.Switches, sh.Before.Steps, sh.Before.Goroutines, sh.Tries)
			} else if sh != nil {
				fmt.Fprintf(p.W, "      shrunk from %d to %d switches, %d to %d steps, %d to %d goroutines (%d schedules tried)\n",
					sh.Before.Switches, sh.After.Switches, sh.Before.Steps, sh.After.Steps, sh.Before.Goroutines, sh.After.Goroutines, sh.Tries)
			}
		}
		if i > 0 && !p.Verbose {
			continue
		}
		tr, err := trace.ReadFile(show)
		if err != nil {
			continue
		}
		p.interleaving(tr, b.Message, show != b.Replay)
	}
	if s.Diverged != "" {
		fmt.Fprintf(p.W, "    diverged: %s\n", s.Diverged)
	}
}

// interleaving prints the schedule of tr: the table of the goroutines
// involved, and with -v every step.
func (p *Printer) interleaving(tr *trace.Trace, msg string, minimised bool) {
	var steps []trace.Entry
	for _, e := range tr.Entries {
		if !e.Choice {
			steps = append(steps, e)
		}
	}
	c := trace.CostOf(tr.Entries)
	cols := involved(msg, steps)
	what := "interleaving"
	if minimised {
		what = "minimised interleaving"
	}
	names := make([]string, len(cols))
	for i, g := range cols {
		names[i] = "g" + g
	}
	shown := strings.Join(names, ", ")
	if len(cols) < c.Goroutines {
		shown += fmt.Sprintf(" (%d of %d goroutines)", len(cols), c.Goroutines)
	}
	fmt.Fprintf(p.W, "    %s: %d step%s, %d switch%s; goroutines %s\n", what, c.Steps, plural(c.Steps), c.Switches, es(c.Switches), shown)
	rows := maxRows
	if p.Verbose {
		rows = 0
	}
	for _, line := range strings.Split(strings.TrimRight(Interleaving(tr, cols, rows), "\n"), "\n") {
		fmt.Fprintf(p.W, "    %s\n", line)
	}
	if p.Verbose {
		for _, line := range strings.Split(strings.TrimRight(tr.Format(0), "\n"), "\n") {
			fmt.Fprintf(p.W, "    %s\n", line)
		}
	}
}

func es(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

// uncontrolled says when goroutines started by uninstrumented code ran
// instrumented code: their interleavings were not explored.
func (p *Printer) uncontrolled(s JSONSummary) {
	if s.Uncontrolled > 0 {
		fmt.Fprintf(p.W, "    note: %d key points ran in goroutines started by uninstrumented code (e.g. a library's workers); Period did not schedule them, so their interleavings were not explored\n", s.Uncontrolled)
	}
	if s.Unconfirmed > 0 {
		fmt.Fprintf(p.W, "    note: %d bug(s) were not reproduced by a replay of their record (in a fresh process, or serially after -parallel), or whose first schedule, which passed, failed the same way when run again: they came from state earlier runs left behind or from free-mode timing, so not reported\n", s.Unconfirmed)
	}
	if s.Fresh && s.Unconfirmed > 0 {
		fmt.Fprintf(p.W, "    note: the test is not re-runnable in one process, so it was explored again with one process per schedule (as -fresh does)\n")
	}
	if s.Abandoned > 0 {
		fmt.Fprintf(p.W, "    note: schedule %d was abandoned without a verdict and the test not explored further: %s (Period's blind spot, not necessarily a bug)\n", s.Schedules, s.AbandonedWhy)
	}
	if s.Interrupted {
		unconfirmed := ""
		if len(s.Bugs) > 0 {
			unconfirmed = "; the bugs listed were not confirmed in a fresh process"
		}
		fmt.Fprintf(p.W, "    note: interrupted after %d schedule(s)%s\n", s.Schedules, unconfirmed)
	}
	if s.TimedOut {
		fmt.Fprintf(p.W, "    note: -timeout ended the exploration after %d schedule(s), before the budget; the schedule in flight got no verdict (raise -timeout to explore further)\n", s.Schedules)
	}
	if s.Cut > 0 {
		fmt.Fprintf(p.W, "    note: the first schedule ran past %d steps without ending: the test is too long to explore, so it was cut (no verdict); set -steps to explore it\n", s.Steps)
	}
}

// Package prints the closing line of a package.
func (p *Printer) Package(pkg string, bugs int, seconds float64) {
	if p.JSON {
		return
	}
	if bugs > 0 {
		fmt.Fprintf(p.W, "FAIL %s  %d bug(s)  %.2fs\n", pkg, bugs, seconds)
	} else {
		fmt.Fprintf(p.W, "ok   %s  %.2fs\n", pkg, seconds)
	}
}

var divergedSite = regexp.MustCompile(`\S+\.go:\d+`)

// DivergedSources explains where a replay of tr left the record: the lines
// of the sites the divergence message names, as recorded (when the file
// keeps them) and as the source has them now.
func DivergedSources(tr *trace.Trace, diverged string) []string {
	var out []string
	seen := map[string]bool{}
	for _, site := range divergedSite.FindAllString(diverged, 8) {
		if seen[site] {
			continue
		}
		seen[site] = true
		old, recorded := tr.Sources[site]
		now := trace.SourceLine(tr.Dir, site)
		switch {
		case recorded && old == now:
			out = append(out, fmt.Sprintf("%s (unchanged): %s", site, old))
		case recorded:
			out = append(out, fmt.Sprintf("%s when recorded: %s", site, old))
			if now == "" {
				now = "(no such line now)"
			}
			out = append(out, fmt.Sprintf("%s now:           %s", site, now))
		case now != "":
			out = append(out, fmt.Sprintf("%s now:           %s", site, now))
		}
	}
	return out
}
