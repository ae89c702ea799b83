//go:build go1.21

// Package trace defines Period's replay file: a versioned, self-describing,
// line-oriented record of one schedule. Replay follows the recorded decisions
// (it never re-runs strategy code) and reports exactly where a run diverges.
//
// Format (one item per line, fields separated by single spaces; the last field
// of a line may contain spaces; message text is Go-quoted):
//
//	period-trace 1
//	package example.com/m/pkg
//	dir /abs/path/of/pkg
//	test TestName
//	strategy random
//	seed 1
//	bound 0
//	race off                       (optional: found with data-race detection off)
//	budget 1000                    (optional, as the next ones: flags of the exploration,
//	focus pkg/file.go               for period verify to run it again)
//	leaks blocked
//	ignore-leak pkg.(*T).loop
//	steps 5000
//	parallel
//	schedule 17
//	bug deadlock
//	location pkg/file.go:12
//	message "all goroutines are blocked: ..."
//	shared pkg/file.go:40          (a site treated as a key point; repeated)
//	source "mu.Lock()" pkg/file.go:12  (optional: a site's line when recorded; repeated)
//	step 0.1 recv pkg/file.go:33   (goroutine path, op, site: one scheduling decision)
//	choose 3 1                     (an open choice: 3 alternatives, the second taken)
//	end
//
// The package is compiled into programs under test: standard library only.
package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Version is the replay format version written by this package.
const Version = 1

const magic = "period-trace"

// Entry is one recorded decision: a step (which goroutine ran its key point)
// or a choice among N alternatives.
type Entry struct {
	Choice bool
	G      string // step: creation path of the goroutine that ran
	Op     string // step: the key point's operation
	Site   string // step: file:line of the key point
	N, K   int    // choice: alternatives and the one taken
}

// Trace is one schedule with the bug it found.
type Trace struct {
	Package  string
	Dir      string
	Test     string
	Strategy string
	Seed     int64
	Bound    int
	Schedule int    // 1-based index of the schedule in its exploration
	NoRace   bool   // data-race detection was off (a replay keeps it off)
	Short    bool   // the tests ran with -short (testing.Short() was true)
	Tags     string // the build tags the test binary was built with
	// Args are the test binary's own arguments (period test -args), one
	// "arg" line each.
	Args []string
	// EarlyTimers: timers set at most this far ahead could fire early, a
	// choice of the schedule (period test -early-timers); 0 in files of
	// versions that had no such choice.
	EarlyTimers time.Duration
	// TimersWhenBlocked: timers fired only when no goroutine could run
	// (period test -timers=blocked).
	TimersWhenBlocked bool
	// Which dependencies were instrumented (period test -instrument,
	// -uninstrumented): a replay builds the same binary.
	Instrument     string
	Uninstrumented []string
	// The exploration that found the bug, for period verify (0 or empty:
	// not recorded, or the default).
	Budget     int
	Focus      string
	Leaks      string // "blocked" or "off"; "" is "all"
	IgnoreLeak []string
	Steps      int  // -steps, when set
	Parallel   bool // found with -parallel
	// Selection is the -run pattern of the exploration ("" ran every
	// test): a replay runs first the selected tests go test -run runs
	// before this one, as the confirmation did.
	Selection string
	// ClockBase is the instant the run's virtual clock started from: a
	// replay starts there too, so that a program seeding randomness with
	// time.Now().UnixNano() draws the same numbers (zero: not recorded).
	ClockBase time.Time

	Kind     string // bug kind: fail, panic, deadlock, leak, hang, race
	Location string // file:line of the failure, or ""
	Message  string

	Shared  []string // sites that were key points because they touch shared memory
	Entries []Entry
	// Sources holds the text of sites' lines when the schedule was
	// recorded (see RecordSources).
	Sources map[string]string
}

// Write writes t in the replay format.
func (t *Trace) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s %d\n", magic, Version)
	fmt.Fprintf(bw, "package %s\ndir %s\ntest %s\nstrategy %s\n", t.Package, t.Dir, t.Test, t.Strategy)
	fmt.Fprintf(bw, "seed %d\nbound %d\n", t.Seed, t.Bound)
	if t.NoRace {
		fmt.Fprintln(bw, "race off")
	}
	if t.Short {
		fmt.Fprintln(bw, "short")
	}
	if t.Tags != "" {
		fmt.Fprintf(bw, "tags %s\n", t.Tags)
	}
	for _, a := range t.Args {
		fmt.Fprintf(bw, "arg %s\n", strconv.Quote(a))
	}
	if t.EarlyTimers > 0 {
		fmt.Fprintf(bw, "early-timers %s\n", t.EarlyTimers)
	}
	if t.TimersWhenBlocked {
		fmt.Fprintln(bw, "timers blocked")
	}
	if t.Instrument != "" {
		fmt.Fprintf(bw, "instrument %s\n", t.Instrument)
	}
	for _, u := range t.Uninstrumented {
		fmt.Fprintf(bw, "uninstrumented %s\n", u)
	}
	if t.Budget > 0 {
		fmt.Fprintf(bw, "budget %d\n", t.Budget)
	}
	if t.Focus != "" {
		fmt.Fprintf(bw, "focus %s\n", t.Focus)
	}
	if t.Leaks != "" && t.Leaks != "all" {
		fmt.Fprintf(bw, "leaks %s\n", t.Leaks)
	}
	for _, f := range t.IgnoreLeak {
		fmt.Fprintf(bw, "ignore-leak %s\n", f)
	}
	if t.Steps > 0 {
		fmt.Fprintf(bw, "steps %d\n", t.Steps)
	}
	if t.Parallel {
		fmt.Fprintln(bw, "parallel")
	}
	if t.Selection != "" {
		fmt.Fprintf(bw, "run %s\n", t.Selection)
	}
	if !t.ClockBase.IsZero() {
		fmt.Fprintf(bw, "clock-base %d\n", t.ClockBase.UnixNano())
	}
	fmt.Fprintf(bw, "schedule %d\n", t.Schedule)
	fmt.Fprintf(bw, "bug %s\nlocation %s\nmessage %s\n", t.Kind, t.Location, strconv.Quote(t.Message))
	for _, s := range t.Shared {
		fmt.Fprintf(bw, "shared %s\n", s)
	}
	sites := make([]string, 0, len(t.Sources))
	for site := range t.Sources {
		sites = append(sites, site)
	}
	sort.Strings(sites)
	for _, site := range sites {
		fmt.Fprintf(bw, "source %s %s\n", strconv.Quote(t.Sources[site]), site)
	}
	for _, e := range t.Entries {
		if e.Choice {
			fmt.Fprintf(bw, "choose %d %d\n", e.N, e.K)
		} else {
			fmt.Fprintf(bw, "step %s %s %s\n", e.G, e.Op, e.Site)
		}
	}
	fmt.Fprintln(bw, "end")
	return bw.Flush()
}

// FileName is the name of the replay file of a bug: the test, the strategy
// and seed that found it (runs of other strategies or seeds into the same
// directory do not overwrite it), the schedule and the bug kind.
func FileName(test, strategy string, seed int64, schedule int, kind string) string {
	return fmt.Sprintf("%s.%s-seed%d.s%d.%s.period", test, strategy, seed, schedule, kind)
}

// WriteFile writes t to path, replacing any previous file atomically.
func (t *Trace) WriteFile(path string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := t.Write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ReadFile reads a replay file.
func ReadFile(path string) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// ErrTruncated reports a replay file that lacks its final "end" line.
var ErrTruncated = errors.New("replay file is truncated (no end line)")

// Read parses a replay file. Every malformed line is an error naming its line number.
func Read(r io.Reader) (*Trace, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	t := &Trace{}
	line := 0
	bad := func(format string, a ...any) error {
		return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, a...))
	}
	ended := false
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			var v int
			if _, err := fmt.Sscanf(text, magic+" %d", &v); err != nil {
				return nil, bad("not a period replay file (want %q header)", magic)
			}
			if v != Version {
				return nil, bad("replay format version %d is not supported (this period reads version %d)", v, Version)
			}
			continue
		}
		if ended {
			return nil, bad("content after end line")
		}
		key, rest, _ := strings.Cut(text, " ")
		var err error
		switch key {
		case "package":
			t.Package = rest
		case "dir":
			t.Dir = rest
		case "test":
			t.Test = rest
		case "strategy":
			t.Strategy = rest
		case "seed":
			t.Seed, err = strconv.ParseInt(rest, 10, 64)
		case "bound":
			t.Bound, err = strconv.Atoi(rest)
		case "schedule":
			t.Schedule, err = strconv.Atoi(rest)
		case "race":
			if rest != "off" {
				err = errors.New("race: want off")
			}
			t.NoRace = true
		case "short":
			t.Short = true
		case "tags":
			t.Tags = rest
		case "arg":
			var a string
			if a, err = strconv.Unquote(rest); err == nil {
				t.Args = append(t.Args, a)
			}
		case "early-timers":
			t.EarlyTimers, err = time.ParseDuration(rest)
		case "timers":
			if rest != "blocked" {
				err = errors.New("timers: want blocked")
			}
			t.TimersWhenBlocked = true
		case "instrument":
			t.Instrument = rest
		case "uninstrumented":
			t.Uninstrumented = append(t.Uninstrumented, rest)
		case "budget":
			t.Budget, err = strconv.Atoi(rest)
		case "focus":
			t.Focus = rest
		case "leaks":
			t.Leaks = rest
		case "ignore-leak":
			t.IgnoreLeak = append(t.IgnoreLeak, rest)
		case "steps":
			t.Steps, err = strconv.Atoi(rest)
		case "parallel":
			t.Parallel = true
		case "run":
			t.Selection = rest
		case "clock-base":
			var ns int64
			if ns, err = strconv.ParseInt(rest, 10, 64); err == nil {
				t.ClockBase = time.Unix(0, ns)
			}
		case "bug":
			t.Kind = rest
		case "location":
			t.Location = rest
		case "message":
			t.Message, err = strconv.Unquote(rest)
		case "shared":
			t.Shared = append(t.Shared, rest)
		case "source":
			q, qerr := strconv.QuotedPrefix(rest)
			if qerr != nil || len(rest) < len(q)+2 || rest[len(q)] != ' ' {
				return nil, bad("source needs a quoted line and a site")
			}
			text, _ := strconv.Unquote(q)
			if t.Sources == nil {
				t.Sources = map[string]string{}
			}
			t.Sources[rest[len(q)+1:]] = text
		case "step":
			f := strings.SplitN(rest, " ", 3)
			if len(f) != 3 {
				return nil, bad("step needs goroutine, op and site")
			}
			t.Entries = append(t.Entries, Entry{G: f[0], Op: f[1], Site: f[2]})
		case "choose":
			var e Entry
			e.Choice = true
			if _, err := fmt.Sscanf(rest, "%d %d", &e.N, &e.K); err != nil || e.K < 0 || e.K >= e.N {
				return nil, bad("choose needs two numbers N K with 0 <= K < N")
			}
			t.Entries = append(t.Entries, e)
		case "end":
			ended = true
		default:
			return nil, bad("unknown item %q", key)
		}
		if err != nil {
			return nil, bad("%s: %v", key, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if line == 0 {
		return nil, errors.New("empty replay file")
	}
	if !ended {
		return nil, ErrTruncated
	}
	if t.Test == "" {
		return nil, errors.New("replay file names no test")
	}
	return t, nil
}
