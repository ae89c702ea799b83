//go:build go1.21

package trace

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sample() *Trace {
	return &Trace{
		Package: "example.com/m/p", Dir: "/tmp/p", Test: "TestX", Strategy: "random",
		Seed: 7, Bound: 3, Schedule: 12, Kind: "deadlock", Location: "p/x.go:3",
		Message: "two goroutines \"wait\"\nforever",
		Shared:  []string{"p/x.go:10", "p/x.go:11"},
		Entries: []Entry{
			{G: "0", Op: "start", Site: "p/x_test.go:5"},
			{G: "0.1", Op: "lock", Site: "p/x.go:3"},
			{Choice: true, N: 3, K: 2},
			{G: "0", Op: "recv", Site: "p/x test.go:9"},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := sample().Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sample()) {
		t.Fatalf("round trip changed the trace:\n got %+v\nwant %+v", got, sample())
	}
	off := sample()
	off.NoRace = true
	buf.Reset()
	off.Write(&buf)
	if !strings.Contains(buf.String(), "\nrace off\n") {
		t.Fatalf("no race line:\n%s", buf.String())
	}
	if got, err := Read(&buf); err != nil || !got.NoRace {
		t.Fatalf("race off lost: %v %+v", err, got)
	}
	// -short and -tags change which code the test runs: a replay needs them.
	flags := sample()
	flags.Short, flags.Tags = true, "integration,linux"
	flags.Args = []string{"-update", "two words", "", "-x=\"q\"\n"} // period test -args
	flags.Instrument, flags.Uninstrumented = "module", []string{"example.com/a/...", "example.com/b"}
	flags.EarlyTimers, flags.TimersWhenBlocked = 250*time.Microsecond, true // the timer model decides the choices
	buf.Reset()
	flags.Write(&buf)
	if got, err := Read(&buf); err != nil || !reflect.DeepEqual(got, flags) {
		t.Fatalf("short and tags lost: %v\n got %+v\nwant %+v", err, got, flags)
	}
	// The lines of sites as recorded, for a replay of an edited program.
	src := sample()
	src.Sources = map[string]string{"p/x.go:3": `mu.Lock() // "a"`, "p/x test.go:9": "<-ch"}
	buf.Reset()
	src.Write(&buf)
	if got, err := Read(&buf); err != nil || !reflect.DeepEqual(got, src) {
		t.Fatalf("sources lost: %v\n got %+v\nwant %+v", err, got, src)
	}
	// period verify runs the exploration again with these.
	ex := sample()
	ex.Budget, ex.Focus, ex.Leaks, ex.IgnoreLeak, ex.Steps, ex.Parallel = 300, "p/x.go", "blocked", []string{"p.(*T).loop", "p.run"}, 5000, true
	ex.Selection = "^(TestA|TestB)$"

	buf.Reset()
	ex.Write(&buf)
	if got, err := Read(&buf); err != nil || !reflect.DeepEqual(got, ex) {
		t.Fatalf("exploration flags lost: %v\n got %+v\nwant %+v", err, got, ex)
	}
	// A replay's clock starts where the recorded run's did.
	cb := sample()
	cb.ClockBase = time.Unix(0, 1795753901216717249)
	buf.Reset()
	cb.Write(&buf)
	if got, err := Read(&buf); err != nil || !reflect.DeepEqual(got, cb) {
		t.Fatalf("clock base lost: %v\n got %+v\nwant %+v", err, got, cb)
	}
}

func TestCorruptFilesAreRejected(t *testing.T) {
	var buf bytes.Buffer
	sample().Write(&buf)
	good := buf.String()
	cases := map[string]string{
		"empty":       "",
		"not a trace": "hello\n",
		"future":      strings.Replace(good, "period-trace 1", "period-trace 99", 1),
		"truncated":   strings.TrimSuffix(good, "end\n"),
		"bad step":    strings.Replace(good, "step 0.1 lock p/x.go:3", "step 0.1", 1),
		"bad choice":  strings.Replace(good, "choose 3 2", "choose 3 5", 1),
		"unknown":     strings.Replace(good, "seed 7", "sed 7", 1),
		"bad race":    strings.Replace(good, "schedule 12", "race on\nschedule 12", 1),
	}
	for name, text := range cases {
		if _, err := Read(strings.NewReader(text)); err == nil {
			t.Errorf("%s: accepted a corrupt replay file", name)
		}
	}
	if _, err := Read(strings.NewReader(cases["truncated"])); !errors.Is(err, ErrTruncated) {
		t.Errorf("truncated file: got %v, want ErrTruncated", err)
	}
}

func TestFormatMarksSwitches(t *testing.T) {
	out := sample().Format(0)
	if !strings.Contains(out, "3 steps, 2 switches") {
		t.Errorf("wrong summary line:\n%s", out)
	}
	if strings.Count(out, "->") != 2 {
		t.Errorf("want 2 switch markers:\n%s", out)
	}
}

func TestPathLess(t *testing.T) {
	if !PathLess("0.2", "0.10") || PathLess("0.10", "0.2") || !PathLess("0", "0.1") {
		t.Fatal("PathLess does not order numerically")
	}
}

// Bugs found by other strategies or seeds get files of their own.
func TestFileName(t *testing.T) {
	a := FileName("TestX", "period", 1, 3, "panic")
	if a != "TestX.period-seed1.s3.panic.period" {
		t.Fatalf("file name %q", a)
	}
	for _, b := range []string{FileName("TestX", "dfs", 1, 3, "panic"), FileName("TestX", "period", 2, 3, "panic")} {
		if b == a {
			t.Fatalf("%q for two explorations", a)
		}
	}
}

func TestRecordSources(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "p"), 0o755)
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n"), 0o644)
	os.WriteFile(filepath.Join(root, "p", "x.go"), []byte("package p\n\n\tmu.Lock()   // here\n"), 0o644)
	tr := sample()
	tr.Dir = filepath.Join(root, "p")
	tr.RecordSources()
	if want := map[string]string{"p/x.go:3": "mu.Lock() // here"}; !reflect.DeepEqual(tr.Sources, want) {
		t.Errorf("sources %q, want %q", tr.Sources, want)
	}
	if got := SourceLine(tr.Dir, "p/x.go:1"); got != "package p" {
		t.Errorf("SourceLine = %q", got)
	}
}
