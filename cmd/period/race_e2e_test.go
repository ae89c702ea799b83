package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The race twins (rt/testdata/races) are explored with several strategies: a
// race-free twin must never be reported, a racy one must be, by every
// strategy.
func TestRaceTwinsStrategies(t *testing.T) {
	dir, _ := filepath.Abs("../../rt/testdata/races")
	want := wants(t, dir)
	if len(want) == 0 {
		t.Skip("no annotated race twins")
	}
	for _, strat := range []string{"period", "random", "pct"} {
		t.Run(strat, func(t *testing.T) {
			got := periodRaces(t, dir, strat, "250")
			for test, kind := range want {
				if _, ok := got[test]; !ok {
					t.Errorf("%s: no summary", test)
				} else if got[test] != (kind == "race") {
					t.Errorf("%s: want %s, period reported a race: %v", test, kind, got[test])
				}
			}
		})
	}
}

// periodRaces explores the tests in dir and tells, per test, whether a race
// was reported. Any other kind of bug fails t.
func periodRaces(t *testing.T, dir, strat, budget string) map[string]bool {
	t.Helper()
	code, sums, stderr := periodJSON(t, "test", "-json", "-continue", "-strategy", strat, "-budget", budget, "-o", t.TempDir(), dir)
	if code == 2 {
		t.Fatalf("period could not run: %s", stderr)
	}
	got := map[string]bool{}
	for test, s := range sums {
		got[test] = false
		for _, b := range s.Bugs {
			if b.Kind == "race" {
				got[test] = true
			} else {
				t.Errorf("%s: unexpected %s: %s", test, b.Kind, b.Message)
			}
		}
	}
	return got
}

// TestRaceAgreement runs the race twins natively under `go test -race`, each
// process once per test (the race detector reports a pair of accesses once per
// process), and requires Period to report a race in exactly the tests where
// the race detector does in some run. The programs are built so that -race
// sees their races whatever the timing (no happens-before order at all, not a
// rare interleaving), so a few runs suffice.
func TestRaceAgreement(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with -race and explores the race twins")
	}
	dir, _ := filepath.Abs("../../rt/testdata/races")
	if _, err := os.Stat(dir); err != nil {
		t.Skip(err)
	}
	bin := filepath.Join(t.TempDir(), "races.test")
	build := exec.Command("go", "test", "-race", "-c", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("go test -race is not available here: %v\n%s", err, out)
	}
	const runs = 5
	native := map[string]bool{}
	failLine := regexp.MustCompile(`^\s*--- (FAIL|PASS): (Test\w+)`)
	for i := 0; i < runs; i++ {
		cmd := exec.Command(bin, "-test.v", "-test.count=1")
		cmd.Dir = dir
		out, _ := cmd.CombinedOutput()
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			if m := failLine.FindStringSubmatch(sc.Text()); m != nil {
				native[m[2]] = native[m[2]] || m[1] == "FAIL"
			}
		}
		// Every failing test must fail because of a race, nothing else.
		if f, r := bytes.Count(out, []byte("--- FAIL: Test")), bytes.Count(out, []byte("race detected during execution of test")); f != r {
			t.Fatalf("%d tests failed natively, %d because of a race:\n%s", f, r, out)
		}
	}
	if len(native) == 0 {
		t.Fatal("no test ran natively")
	}
	period := periodRaces(t, dir, "period", "250")
	var names []string
	for name := range native {
		names = append(names, name)
	}
	sort.Strings(names)
	var table strings.Builder
	for _, name := range names {
		p, ok := period[name]
		switch {
		case !ok:
			t.Errorf("%s: no summary from period", name)
		case p != native[name]:
			t.Errorf("%s: go test -race says race=%v, period says race=%v", name, native[name], p)
		}
		table.WriteString(name + " " + map[bool]string{true: "race", false: "none"}[native[name]] + "\n")
	}
	t.Logf("verdicts (agreeing):\n%s", table.String())
}
