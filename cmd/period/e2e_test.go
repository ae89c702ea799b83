package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/period-dev/period/internal/bench"
	"github.com/period-dev/period/internal/report"
)

// The end-to-end tests run the period command on the example programs, the
// way a user would, and check every finding against the `// period:want KIND`
// line above each test function (`none`: the test is correct and no schedule
// may fail it). An unexpected bug fails as surely as a missing one.

// wants reads the annotations of the test files in dir.
func wants(t *testing.T, dir string) map[string]string {
	t.Helper()
	w, err := bench.Wants(dir)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// periodJSON runs the period command in-process and decodes its summaries.
func periodJSON(t *testing.T, args ...string) (int, map[string]report.JSONSummary, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	sums := map[string]report.JSONSummary{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var s report.JSONSummary
		if json.Unmarshal(sc.Bytes(), &s) == nil && s.Action == "summary" {
			if _, dup := sums[s.Test]; dup {
				t.Errorf("two summaries for %s", s.Test)
			}
			sums[s.Test] = s
		}
	}
	return code, sums, errb.String()
}

func exampleDirs(t *testing.T, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Skipf("no %s: %v", root, err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	sort.Strings(dirs)
	return dirs
}

func gitStatus(t *testing.T, dir string) string {
	out, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--", ".").CombinedOutput()
	if err != nil {
		return "" // not a git checkout (e.g. a source archive): nothing to compare
	}
	return string(out)
}

func TestExamples(t *testing.T) { testExamples(t) }

// TestExamplesParallel explores with PERIOD's last period running truly in
// parallel: no false alarm, no missed bug, and every bug replays.
func TestExamplesParallel(t *testing.T) { testExamples(t, "-parallel") }

func testExamples(t *testing.T, flags ...string) {
	if testing.Short() {
		t.Skip("builds and explores every example")
	}
	root, _ := filepath.Abs("../../examples")
	before := gitStatus(t, root)
	for _, dir := range exampleDirs(t, root) {
		dir := dir
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want := wants(t, dir)
			if len(want) == 0 {
				t.Skip("no annotated tests")
			}
			args := append([]string{"test", "-json", "-continue", "-budget", "300", "-o", t.TempDir()}, flags...)
			code, sums, stderr := periodJSON(t, append(args, dir)...)
			if code == 2 {
				t.Fatalf("period could not run: %s", stderr)
			}
			anyBug := false
			for test, kind := range want {
				s, ok := sums[test]
				if !ok {
					t.Errorf("%s: no summary", test)
					continue
				}
				var got []string
				for _, b := range s.Bugs {
					got = append(got, b.Kind)
				}
				anyBug = anyBug || len(got) > 0
				switch {
				case kind == "none" && len(got) > 0:
					t.Errorf("%s: correct test, but period reported %v: %s", test, got, s.Bugs[0].Message)
				case kind != "none" && !contains(got, kind):
					t.Errorf("%s: want a %s, got %v after %d schedules", test, kind, got, s.Schedules)
				}
				for _, b := range s.Bugs {
					if b.Kind == kind && b.Replay != "" {
						checkReplay(t, b.Replay, kind)
						break
					}
				}
			}
			if wantCode := map[bool]int{true: 1, false: 0}[anyBug]; code != wantCode {
				t.Errorf("exit status %d, want %d", code, wantCode)
			}
		})
	}
	if after := gitStatus(t, root); after != before {
		t.Errorf("period changed the user's tree:\n%s", after)
	}
}

// checkReplay replays a bug and requires the same failure.
func checkReplay(t *testing.T, file, kind string) {
	t.Helper()
	code, sums, stderr := periodJSON(t, "replay", "-json", file)
	if code != 1 {
		t.Errorf("replay %s: exit %d, want 1 (reproduced); %s", file, code, stderr)
		return
	}
	for _, s := range sums {
		// The recorded bug, possibly after a race on the way to it (a
		// lost update's schedule races before its check fails).
		var got *report.JSONBug
		for i := range s.Bugs {
			if s.Bugs[i].Kind == kind {
				got = &s.Bugs[i]
				break
			}
		}
		if s.Diverged != "" || got == nil {
			t.Errorf("replay %s: %+v", file, s)
		} else if kind == "fail" && got.Location == "" {
			t.Errorf("replay %s: the failure's message and location are lost: %+v", file, *got)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestParallelReplay: a bug found with -parallel (its last period run truly
// in parallel) replays serially from its file, the same failure every time.
func TestParallelReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores examples")
	}
	for _, ex := range []string{"doubleclose", "wgadd", "lostupdate", "pipeline"} {
		dir, _ := filepath.Abs(filepath.Join("../../examples", ex))
		want := wants(t, dir)
		_, sums, stderr := periodJSON(t, "test", "-json", "-parallel", "-budget", "300", "-o", t.TempDir(), dir)
		for test, s := range sums {
			if want[test] == "none" && len(s.Bugs) > 0 {
				t.Errorf("%s: correct test, but period -parallel reported %s", test, s.Bugs[0].Message)
			}
			for _, b := range s.Bugs {
				for i := 0; i < 20 && !t.Failed(); i++ {
					checkReplay(t, b.Replay, b.Kind)
				}
			}
		}
		if len(sums) == 0 {
			t.Errorf("%s: no summaries: %s", ex, stderr)
		}
	}
}

// period test keeps its binaries in $PERIODCACHE; period clean -cache
// removes them.
func TestBinCacheAndClean(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	cache := filepath.Join(t.TempDir(), "cache")
	t.Setenv("PERIODCACHE", cache)
	dir, _ := filepath.Abs("../../examples/lostupdate")
	for i := 0; i < 2; i++ {
		code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "1", "-o", t.TempDir(), dir)
		if code == 2 || len(sums) == 0 {
			t.Fatalf("period test: exit %d, %d summaries\n%s", code, len(sums), stderr)
		}
	}
	if slots, _ := filepath.Glob(filepath.Join(cache, "bin", "*", "test")); len(slots) != 1 {
		t.Fatalf("cache slots after two runs of one package: %q", slots)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"clean", "-cache"}, &out, &errb); code != 0 {
		t.Fatalf("period clean -cache: exit %d: %s", code, errb.String())
	}
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		t.Errorf("the cache is still there (%v)", err)
	}
	if code := run([]string{"clean"}, &out, &errb); code != 2 {
		t.Errorf("period clean without -cache: exit %d, want 2", code)
	}
}

// A package that does not compile is an error, and the others are still
// explored (as go test ./... tests them).
func TestBrokenPackageDoesNotStopTheOthers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	dir, _ := filepath.Abs("../../instrument/testdata/prepare/partbroken")
	for _, p := range []string{"1", "2"} {
		code, sums, stderr := periodJSON(t, "test", "-json", "-p", p, "-budget", "2", "-o", t.TempDir(), dir+"/...")
		if code != 2 || !strings.Contains(stderr, "example.com/partbroken/bad does not compile") {
			t.Errorf("-p %s: exit %d, stderr:\n%s", p, code, stderr)
		}
		if s, ok := sums["TestTwo"]; !ok || len(s.Bugs) != 0 {
			t.Errorf("-p %s: the package that compiles was not explored (%+v)", p, sums)
		}
	}
}

// Packages without tests are not an error, as under go test ("[no test
// files]", exit 0): rivo/tview's module has none.
func TestNoTestsIsNoError(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/notests\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte("package p\n\nfunc F() int { return 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, sums, stderr := periodJSON(t, "test", "-json", dir)
	if code != exitOK || len(sums) != 0 || !strings.Contains(stderr, "no test functions") {
		t.Fatalf("exit %d, %d summaries, stderr %q: want exit 0 and the note", code, len(sums), stderr)
	}
}
