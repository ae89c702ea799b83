package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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
				} else if (got[test] > 0) != (kind == "race") {
					t.Errorf("%s: want %s, period reported %d race(s)", test, kind, got[test])
				}
			}
		})
	}
}

// periodRaces explores the tests in dir and tells, per test, how many races
// were reported (one per pair of sites). Any other kind of bug fails t.
func periodRaces(t *testing.T, dir, strat, budget string) map[string]int {
	t.Helper()
	code, sums, stderr := periodJSON(t, "test", "-json", "-continue", "-strategy", strat, "-budget", budget, "-o", t.TempDir(), dir)
	if code == 2 {
		t.Fatalf("period could not run: %s", stderr)
	}
	got := map[string]int{}
	for test, s := range sums {
		got[test] = 0
		for _, b := range s.Bugs {
			if b.Kind == "race" {
				got[test]++
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
// the race detector does in some run, and as many reports as -race reports
// distinct pairs of source lines (read/write and write/write of one pair are
// one report). The programs are built so that -race sees their races whatever
// the timing (no happens-before order at all, not a rare interleaving), so a
// few runs suffice.
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
	pairs := map[string]map[string]bool{} // per test, the racing pairs of lines -race reported
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
		for test, ps := range racePairs(out) {
			if pairs[test] == nil {
				pairs[test] = map[string]bool{}
			}
			for p := range ps {
				pairs[test][p] = true
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
		case (p > 0) != native[name]:
			t.Errorf("%s: go test -race says race=%v, period says race=%v", name, native[name], p > 0)
		case p != len(pairs[name]):
			t.Errorf("%s: go test -race reports %d distinct racing pair(s) of lines %v, period %d report(s)", name, len(pairs[name]), pairs[name], p)
		}
		fmt.Fprintf(&table, "%s %s %d\n", name, map[bool]string{true: "race", false: "none"}[native[name]], len(pairs[name]))
	}
	t.Logf("verdicts (agreeing; test, -race verdict, distinct racing pairs of lines):\n%s", table.String())
}

var (
	runLine    = regexp.MustCompile(`^=== RUN\s+(Test\w+)`)
	accessLine = regexp.MustCompile(` at 0x[0-9a-f]+ by `)
	frameLine  = regexp.MustCompile(`/races/(\w+_test\.go:\d+)`)
)

// racePairs reads the reports of a -race run: per test, the pairs of source
// lines (the first frame of the test package in each access's stack, "?"
// when there is none, as for accesses inside sync/atomic or sync) that it
// reported racing.
func racePairs(out []byte) map[string]map[string]bool {
	got := map[string]map[string]bool{}
	test := ""
	var sites []string // first lines of the accesses of the current report
	inReport, inAccess := false, false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case runLine.MatchString(line):
			test = runLine.FindStringSubmatch(line)[1]
		case line == "WARNING: DATA RACE":
			inReport, inAccess, sites = true, false, nil
		case !inReport:
		case strings.HasPrefix(line, "=================="):
			inReport = false
			if len(sites) >= 2 {
				pair := sites[:2]
				sort.Strings(pair)
				if got[test] == nil {
					got[test] = map[string]bool{}
				}
				got[test][pair[0]+" "+pair[1]] = true
			}
		case accessLine.MatchString(line):
			inAccess = true
			sites = append(sites, "?")
		case strings.HasPrefix(line, "Goroutine "):
			inAccess = false
		case inAccess:
			if m := frameLine.FindStringSubmatch(line); m != nil && sites[len(sites)-1] == "?" {
				sites[len(sites)-1] = m[1]
			}
		}
	}
	return got
}

// Accesses ordered by an io.Pipe or a net.Pipe (channels and locks of the
// standard library, which -race sees and Period does not) are not reported
// as racing: a goroutine that waited for real in a run reports no race
// (rabbitmq/amqp091-go's client tests were reported racing). A race between
// goroutines beside the conversation is still found. (Not minimised: the
// minimisation of a schedule with real I/O can wait two minutes for a
// record that never comes, before and after this change.)
func TestPipeConversationsAreNoRace(t *testing.T) {
	for _, st := range []string{"period", "random", "pct"} {
		t.Run(st, func(t *testing.T) {
			checkLangProgram(t, "testdata/pipesync", 6, map[string]string{"TestRaceBesidePipe": "race", "TestRaceWhileLogging": "race"}, "-budget", "30", "-strategy", st, "-minimize=false")
		})
	}
}

// A pure Go dependency that only an uninstrumented one (with assembly)
// imports stays uninstrumented too: the uninstrumented one hands its
// buffers from goroutine to goroutine through a channel the model does not
// see, and the buffers' accesses, instrumented, were reported as a race
// (klauspost/compress's fse under zstd in badger's tests; docs/qa.md).
func TestDependencyOnlyUnderUninstrumentedIsUninstrumented(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/asmdep/app")
	code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "20", "-o", t.TempDir(), dir)
	s := sums["TestSharedScratch"]
	if code != 0 || len(s.Bugs) != 0 {
		t.Fatalf("exit %d, %+v: want no race: %s", code, s.Bugs, stderr)
	}
	if !slices.Contains(s.Uninstrumented, "example.com/purelib") || !slices.Contains(s.Uninstrumented, "example.com/asmlib") {
		t.Errorf("Uninstrumented %v, want asmlib and purelib", s.Uninstrumented)
	}
}
