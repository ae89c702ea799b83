package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/period-dev/period/internal/report"
	"github.com/period-dev/period/strategy"
)

// canonical renders summaries for comparison: Elapsed (timing) dropped,
// replay files named by their base name (runs write into other dirs).
func canonical(t *testing.T, out []byte) []string {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		var s report.JSONSummary
		if json.Unmarshal([]byte(l), &s) != nil || s.Action != "summary" {
			continue
		}
		s.Elapsed = 0
		for i := range s.Bugs {
			s.Bugs[i].Replay = filepath.Base(s.Bugs[i].Replay)
			if s.Bugs[i].Minimized != "" {
				s.Bugs[i].Minimized = filepath.Base(s.Bugs[i].Minimized)
			}
		}
		b, _ := json.Marshal(s)
		lines = append(lines, string(b))
	}
	return lines
}

// replayFiles reads every replay file of dir.
func replayFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.period"))
	m := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m[filepath.Base(f)] = string(data)
	}
	return m
}

// withoutBudget drops the budget lines of replay files.
func withoutBudget(files map[string]string) map[string]string {
	m := map[string]string{}
	for name, data := range files {
		m[name] = regexp.MustCompile(`(?m)^budget \d+\n`).ReplaceAllString(data, "")
	}
	return m
}

func bugCount(lines []string) int {
	n := 0
	for _, l := range lines {
		var s report.JSONSummary
		json.Unmarshal([]byte(l), &s)
		n += len(s.Bugs)
	}
	return n
}

// -p 2 splits the schedules of a seeded strategy over two processes (and
// runs the tests of the other strategies in processes of their own): the
// summaries, schedule numbers of the bugs and replay files are those of
// -p 1.
func TestParallelSameAsSerial(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores programs")
	}
	for _, tc := range []struct {
		strategy string
		cont     bool
	}{{"random", true}, {"random", false}, {"pct", true}, {"ppct", true}, {"dfs", true}, {"period", false}} {
		var outs [2][]string
		var files [2]map[string]string
		for i, p := range []string{"1", "2"} {
			dir := t.TempDir()
			args := []string{"test", "-json", "-budget", "300", "-p", p, "-strategy", tc.strategy, "-o", dir}
			if tc.cont {
				args = append(args, "-continue")
			}
			var out, errb bytes.Buffer
			code := run(append(args, "../../examples/lostupdate", "../../examples/checkthenact", "../../examples/lockorder"), &out, &errb)
			if code != exitBug {
				t.Fatalf("%s -p %s: exit %d, want %d (bugs found)\n%s", tc.strategy, p, code, exitBug, errb.String())
			}
			outs[i], files[i] = canonical(t, out.Bytes()), replayFiles(t, dir)
		}
		if bugCount(outs[0]) == 0 || len(files[0]) == 0 {
			t.Fatalf("%s: no bug found: the comparison proves nothing", tc.strategy)
		}
		if !reflect.DeepEqual(outs[0], outs[1]) {
			t.Errorf("%s -continue=%v: -p 1 and -p 2 differ:\n%s\n---\n%s", tc.strategy, tc.cont, strings.Join(outs[0], "\n"), strings.Join(outs[1], "\n"))
		}
		if !reflect.DeepEqual(files[0], files[1]) {
			t.Errorf("%s -continue=%v: replay files differ between -p 1 and -p 2", tc.strategy, tc.cont)
		}
	}
}

// A large budget split over processes stays split: a worker's list of
// schedules (tens of thousands) is over what Linux lets one environment
// string hold, so it goes to the test process in a file; it used to fail
// with "argument list too long" and fall back to one process.
func TestLargeBudgetStaysSplit(t *testing.T) {
	if testing.Short() {
		t.Skip("explores 100,000 schedules")
	}
	var out, errb bytes.Buffer
	code := run([]string{"test", "-v", "-p", "2", "-strategy", "random", "-budget", "100000", "-o", t.TempDir(), "-run", "TestWithdrawFixed", "../../examples/checkthenact"}, &out, &errb)
	all := out.String() + errb.String()
	if code != 0 || strings.Contains(all, "split exploration failed") || !strings.Contains(all, "100000 of 100000 schedules") {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
}

// period test -shard i/3 run as three separate processes, merged by period
// merge (a fourth), equals the unsharded run, replay files included, for
// every strategy.
func TestShardMergeEqualsUnsharded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores programs")
	}
	bin := filepath.Join(t.TempDir(), "period")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	pkgs := []string{"./lostupdate", "./checkthenact", "./doubleclose"}
	strategies := append(strategy.Names(), "native")
	examples, _ := filepath.Abs("../../examples")
	period := func(args ...string) []byte {
		cmd := exec.Command(bin, args...)
		cmd.Dir = examples
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != exitBug) {
			t.Fatalf("period %v: %v\n%s", args, err, errb.String())
		}
		return out.Bytes()
	}
	bugs := 0
	for k, st := range strategies {
		common := []string{"test", "-json", "-budget", "100", "-continue", "-strategy", st}
		whole := t.TempDir()
		want := canonical(t, period(append(append(common, "-o", whole), pkgs...)...))
		var dirs []string
		for i := 1; i <= 3; i++ {
			d := t.TempDir()
			dirs = append(dirs, d)
			period(append(append(common, "-o", d, "-shard", fmt.Sprintf("%d/3", i)), pkgs...)...)
		}
		// Artifacts downloaded elsewhere: the shard directories move, and
		// merge finds the replay files beside each result file.
		for i, d := range dirs {
			if err := os.Rename(d, d+"-moved"); err != nil {
				t.Fatal(err)
			}
			dirs[i] = d + "-moved"
		}
		merged := t.TempDir()
		got := canonical(t, period(append([]string{"merge", "-json", "-o", merged}, dirs...)...))
		bugs += bugCount(want)
		if len(want) != 7 {
			t.Errorf("%s: %d summaries, want 7", st, len(want))
		}
		if st == "native" {
			// Native runs are the real scheduler's: a run that finds a bug
			// in one process may not in another. Only the shape is compared.
			if len(got) != len(want) {
				t.Errorf("native: %d merged summaries, want %d", len(got), len(want))
			}
			continue
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: merged shards differ from the unsharded run:\n%s\n---\n%s", st, strings.Join(want, "\n"), strings.Join(got, "\n"))
		}
		wf, mf := replayFiles(t, whole), replayFiles(t, merged)
		if !reflect.DeepEqual(wf, mf) {
			t.Errorf("%s: replay files differ: unsharded %v, merged %v", st, keys(wf), keys(mf))
		}
		// A missing shard is an error, not a partial report.
		if k == 0 {
			cmd := exec.Command(bin, "merge", dirs[0], dirs[2])
			if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "shard 2/3 is missing") {
				t.Errorf("merge without shard 2: %v %s", err, out)
			}
		}
	}
	if bugs == 0 {
		t.Fatal("no bug found: the comparisons prove nothing")
	}
}

func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// -resume: an exploration saved with a smaller budget and continued with a
// larger one (as after a stop) equals the exploration run at once, with -p
// 1 and -p 2; other flags than the budget are refused.
func TestResumeEqualsWholeRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores programs")
	}
	pkgs := []string{"../../examples/lostupdate", "../../examples/checkthenact"}
	explore := func(out string, extra ...string) []string {
		var o, e bytes.Buffer
		args := append([]string{"test", "-json", "-strategy", "pct", "-continue", "-o", out}, extra...)
		if code := run(append(args, pkgs...), &o, &e); code != exitBug {
			t.Fatalf("%v: exit %d\n%s", args, code, e.String())
		}
		return canonical(t, o.Bytes())
	}
	whole := t.TempDir()
	want := explore(whole, "-p", "1", "-budget", "1500")
	for _, p := range []string{"1", "2"} {
		dir, out := t.TempDir(), t.TempDir()
		explore(out, "-p", p, "-budget", "400", "-resume", dir)
		got := explore(out, "-p", p, "-budget", "1500", "-resume", dir)
		if bugCount(want) == 0 {
			t.Fatal("no bug found: the comparison proves nothing")
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("-p %s: resumed\n%s\nwhole\n%s", p, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// Files of bugs found before the stop record the budget of that
		// run (400): the rest must be the same.
		if !reflect.DeepEqual(withoutBudget(replayFiles(t, whole)), withoutBudget(replayFiles(t, out))) {
			t.Errorf("-p %s: replay files differ", p)
		}
		var e bytes.Buffer
		if code := run(append([]string{"test", "-json", "-strategy", "pct", "-seed", "2", "-resume", dir, "-o", out}, pkgs...), io.Discard, &e); code != exitError || !strings.Contains(e.String(), "other flags") {
			t.Errorf("-resume with another seed: exit %d %s", code, e.String())
		}
	}
}
