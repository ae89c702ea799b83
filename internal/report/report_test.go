package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/period-dev/period/trace"
)

func TestGroupGoroutines(t *testing.T) {
	lines := []string{"all goroutines are blocked:", "  goroutine g0 blocked on wg.wait at p/x_test.go:9 in p.TestX"}
	for i := 1; i <= 240; i++ {
		lines = append(lines, fmt.Sprintf("  goroutine g0.%d blocked on lock at p/pool.go:153 in p.worker, created at p/pool.go:40 by p.Start", i))
	}
	lines = append(lines, "  goroutine g0.300 blocked on recv at p/pool.go:99 in p.other")
	got := groupGoroutines(lines)
	want := []string{
		"all goroutines are blocked:",
		"  goroutine g0 blocked on wg.wait at p/x_test.go:9 in p.TestX",
		"  240 goroutines g0.1..g0.240 blocked on lock at p/pool.go:153 in p.worker, created at p/pool.go:40 by p.Start",
		"  goroutine g0.300 blocked on recv at p/pool.go:99 in p.other",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Two goroutines saying the same thing stay as they are.
	two := []string{"  goroutine g0.1 blocked on lock at a.go:1", "  goroutine g0.2 blocked on lock at a.go:1"}
	if got := groupGoroutines(two); strings.Join(got, "\n") != strings.Join(two, "\n") {
		t.Fatalf("two goroutines: %q", got)
	}
	if got := pathRange([]string{"0.1", "0.3", "0.7"}); got != "g0.1, g0.3, ..., g0.7" {
		t.Fatalf("pathRange of a gapped list: %s", got)
	}
}

func TestCompressSchedule(t *testing.T) {
	var names []string
	for i := 0; i < 240; i++ {
		names = append(names, fmt.Sprintf("t%d", i))
	}
	for _, c := range []struct{ in, want string }{
		{"<{" + strings.Join(names, ",") + "}>", "<{t0..t239}>"},
		{"<{t0,t1,t2..}>", "<{t0,t1,t2..}>"},
		{"<{t0,t1,t2,t3,t4,t5..}> (t0 = g0)", "<{t0..t4,t5..}> (t0 = g0)"},
		{"<{t0},{t1,t3,t4}>", "<{t0},{t1,t3,t4}>"},
	} {
		if got := compressSchedule(c.in); got != c.want {
			t.Errorf("compressSchedule(%.40q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := strings.Repeat("{t1,t9}", 100)
	if got := compressSchedule(long); len(got) > 200 || !strings.Contains(got, "characters more") {
		t.Errorf("a long schedule is not cut: %d characters", len(got))
	}
}

// module writes a small module whose source lines the table shows.
func module(t *testing.T) string {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "p"), 0o755)
	src := "package p\n\nfunc f() {\n\tmu.Lock()\n\tx++\n\tch <- 1\n}\n"
	os.WriteFile(filepath.Join(dir, "p", "p.go"), []byte(src), 0o644)
	return filepath.Join(dir, "p")
}

func step(g, op, site string) trace.Entry { return trace.Entry{G: g, Op: op, Site: site} }

func TestInterleavingTable(t *testing.T) {
	tr := &trace.Trace{Dir: module(t), Location: "p/p.go:5", Entries: []trace.Entry{
		step("0", "start", "test"),
		step("0.1", "start", "p/p.go:3"),
		step("0.5", "lock", "p/p.go:4"), step("0.6", "lock", "p/p.go:4"), // not involved: one folded row
		step("0.1", "lock", "p/p.go:4"),
		step("0", "write", "p/p.go:5"), step("0", "write", "p/p.go:5"), step("0", "write", "p/p.go:5"),
		step("0.1", "send", "p/p.go:6"),
	}}
	got := Interleaving(tr, []string{"0", "0.1"}, 0)
	lines := strings.Split(strings.TrimRight(got, "\n"), "\n")
	if len(lines) != 7 {
		t.Fatalf("want a header and 6 rows, got:\n%s", got)
	}
	if !strings.Contains(lines[0], "g0 ") || !strings.Contains(lines[0], "g0.1") || strings.Contains(lines[0], "g0.5") {
		t.Errorf("header names the wrong goroutines: %q", lines[0])
	}
	if !strings.Contains(lines[3], "3-4") || !strings.Contains(lines[3], "2 steps of 2 other goroutines") {
		t.Errorf("the other goroutines' run is not one row: %q", lines[3])
	}
	row := lines[5]
	if !strings.HasPrefix(strings.TrimSpace(row), "*6-8") || !strings.Contains(row, "write p.go:5 (x3)") || !strings.HasSuffix(row, "| x++") {
		t.Errorf("repeated steps at the bug's line: %q", row)
	}
	// Column of g0.1 is to the right of g0's.
	if strings.Index(lines[6], "send p.go:6") <= strings.Index(lines[5], "write") || !strings.HasSuffix(lines[6], "| ch <- 1") {
		t.Errorf("g0.1's step is not in its column with its source: %q", lines[6])
	}
	if cut := Interleaving(tr, []string{"0", "0.1"}, 2); !strings.Contains(cut, "4 earlier rows") || strings.Contains(cut, "start p.go:3") {
		t.Errorf("maxRows does not keep the last rows:\n%s", cut)
	}
}

func TestInvolved(t *testing.T) {
	steps := []trace.Entry{step("0", "start", "test"), step("0.1", "start", "a"), step("0.2", "start", "a"), step("0.3", "write", "a"), step("0.9", "read", "a")}
	got := involved("data race: write by goroutine g0.3 at a\n  and earlier read by goroutine g0.1 at a", steps)
	if strings.Join(got, " ") != "0 0.1 0.2 0.3 0.9" {
		t.Errorf("involved = %v", got)
	}
	many := []trace.Entry{}
	for i := 0; i < 20; i++ {
		many = append(many, step(fmt.Sprintf("0.%d", i), "lock", "a"))
	}
	got = involved("goroutine g0.17 blocked", many)
	if len(got) != maxColumns || got[0] == "" || !contains(got, "0.17") || !contains(got, "0.19") {
		t.Errorf("involved of many = %v", got)
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// TestResultText: the report names the cause first, shows the minimised
// interleaving as a table, and lists every step only with -v.
func TestResultText(t *testing.T) {
	dir := module(t)
	orig := &trace.Trace{Package: "example.com/m/p", Dir: dir, Test: "TestX", Strategy: "random", Kind: "deadlock", Location: "p/p.go:4",
		Message: "all goroutines are blocked:\n  goroutine g0 blocked on recv at p/p.go:6\n  goroutine g0.1 blocked on lock at p/p.go:4\n",
		Entries: []trace.Entry{step("0", "start", "test"), step("0.1", "start", "p/p.go:3"), step("0", "lock", "p/p.go:4"), step("0.1", "write", "p/p.go:5"), step("0", "unlock", "p/p.go:4")}}
	min := *orig
	min.Entries = []trace.Entry{step("0", "start", "test"), step("0", "lock", "p/p.go:4"), step("0.1", "start", "p/p.go:3")}
	out := t.TempDir()
	origFile, minFile := filepath.Join(out, "x.period"), filepath.Join(out, "x.min.period")
	if err := orig.WriteFile(origFile); err != nil {
		t.Fatal(err)
	}
	if err := min.WriteFile(minFile); err != nil {
		t.Fatal(err)
	}
	s := JSONSummary{Test: "TestX", Strategy: "random", Schedules: 3, Bugs: []JSONBug{{Kind: "deadlock", Schedule: 3, Message: orig.Message, Location: orig.Location,
		Replay: origFile, Minimized: minFile, Shrink: &Shrink{Before: trace.CostOf(orig.Entries), After: trace.CostOf(min.Entries), Tries: 9}}}}
	var b bytes.Buffer
	(&Printer{W: &b}).Result(s)
	text := b.String()
	lines := strings.Split(text, "\n")
	if !strings.HasPrefix(lines[0], "--- BUG TestX: deadlock at p/p.go:4") || !strings.Contains(lines[1], "all goroutines are blocked") {
		t.Errorf("the report does not lead with the bug and its cause:\n%s", text)
	}
	for _, want := range []string{
		"minimised: period replay " + minFile,
		"shrunk from 4 to 1 switches, 5 to 3 steps, 2 to 2 goroutines (9 schedules tried)",
		"minimised interleaving: 3 steps, 1 switch; goroutines g0, g0.1",
		"| mu.Lock()",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "per goroutine:") || strings.Contains(text, "write") {
		t.Errorf("without -v the full step list (or the original schedule) is shown:\n%s", text)
	}
	b.Reset()
	(&Printer{W: &b, Verbose: true}).Result(s)
	if v := b.String(); !strings.Contains(v, "per goroutine:") || !strings.Contains(v, "interleaving: 3 steps, 1 switches") {
		t.Errorf("-v does not list every step:\n%s", v)
	}
}

func TestInterleavingFoldsLoops(t *testing.T) {
	tr := &trace.Trace{Dir: module(t), Entries: []trace.Entry{step("0", "start", "test")}}
	for i := 0; i < 100; i++ {
		tr.Entries = append(tr.Entries, step("0.1", "lock", "p/p.go:4"), step("0.1", "write", "p/p.go:5"))
	}
	tr.Entries = append(tr.Entries, step("0", "send", "p/p.go:6"))
	got := Interleaving(tr, []string{"0", "0.1"}, 0)
	lines := strings.Split(strings.TrimRight(got, "\n"), "\n")
	if len(lines) != 6 || !strings.Contains(lines[4], "4-201") || !strings.Contains(lines[4], "the 2 rows above repeat 99 more times") || !strings.Contains(lines[5], "send") {
		t.Fatalf("a loop of 100 iterations is not folded:\n%s", got)
	}
}

func TestResultNothingShrunk(t *testing.T) {
	c := trace.Cost{Switches: 2, Steps: 6, Goroutines: 3}
	var b bytes.Buffer
	(&Printer{W: &b}).Result(JSONSummary{Test: "TestX", Bugs: []JSONBug{{Kind: "deadlock", Replay: "/nonexistent/x.period", Minimized: "/nonexistent/x.min.period", Shrink: &Shrink{Before: c, After: c, Tries: 10}}}})
	if !strings.Contains(b.String(), "no smaller schedule found (2 switches, 6 steps, 3 goroutines; 10 schedules tried)") || strings.Contains(b.String(), "shrunk") {
		t.Errorf("a schedule that did not shrink:\n%s", b.String())
	}
}

// A cell too wide for its column keeps its line number.
func TestClipCellKeepsLine(t *testing.T) {
	if got := clipCell("wg.wait checkthenact_test.go:22", 30); got != "wg.wait checkthenact_test.~:22" || len(got) != 30 {
		t.Errorf("clipped to %q", got)
	}
	if got := clipCell("lock a.go:3", 30); got != "lock a.go:3" {
		t.Errorf("clipped a short cell to %q", got)
	}
}
