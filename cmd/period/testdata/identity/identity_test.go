package identity

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// count runs two incrementing goroutines, so that there are schedules to explore.
func count(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Incr()
		}()
	}
	wg.Wait()
	if c.Value() != 2 {
		t.Errorf("count = %d", c.Value())
	}
}

var lastTempDir string

type named interface{ Name() string }

func namer(x named) named { return x }

func TestIdentity(t *testing.T) {
	if !mainRan {
		t.Error("TestMain did not run")
	}
	if testing.Verbose() {
		t.Error("testing.Verbose() is true without -v")
	}
	// Through an interface of the program's (testify's failure messages,
	// a snapshot library naming its files by test), as through testing.TB.
	var n interface{ Name() string } = t
	if got := n.Name(); got != "TestIdentity" {
		t.Errorf("Name() through an interface = %q, want TestIdentity", got)
	}
	t.Run("sub", func(t *testing.T) {
		if got := namer(t).Name(); got != "TestIdentity/sub" {
			t.Errorf("Name() through an interface = %q, want TestIdentity/sub", got)
		}
	})
	if _, err := os.Stat("identity_test.go"); err != nil {
		t.Errorf("the test does not run in its package directory: %v", err)
	}
	if v := os.Getenv("IDENTITY_SETENV"); v != "" {
		t.Errorf("t.Setenv of an earlier run is still in effect: %q", v)
	}
	t.Setenv("IDENTITY_SETENV", "1")
	dir := t.TempDir()
	if dir == lastTempDir {
		t.Errorf("t.TempDir() %s is the one of an earlier run", dir)
	}
	lastTempDir = dir
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("t.TempDir() is not a new empty directory: %v %v", entries, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Error(err)
	}
	t.Chdir(dir)
	if _, err := os.Stat("f"); err != nil {
		t.Errorf("t.Chdir did not change the directory: %v", err)
	}
	if err := t.Context().Err(); err != nil {
		t.Errorf("t.Context() is done while the test runs: %v", err)
	}
	checkStacks(t)
	checkNestedRun(t)
	count(t)
}

// checkNestedRun: a run of package testing inside the test (testify's
// suite tests capture one's output) prints as under go test without -v:
// the failure, not the passing tests' lines.
func checkNestedRun(t *testing.T) {
	if f := flag.Lookup("test.v"); f == nil || f.Value.String() != "false" {
		t.Errorf("-test.v is %v without -v", f.Value)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	testing.RunTests(func(string, string) (bool, error) { return true, nil }, []testing.InternalTest{
		{Name: "InnerPass", F: func(t *testing.T) { t.Log("INNERPASS") }},
		{Name: "InnerFail", F: func(t *testing.T) { t.Error("INNERFAIL") }},
	})
	os.Stdout = stdout
	w.Close()
	out, _ := io.ReadAll(r)
	if s := string(out); strings.Contains(s, "INNERPASS") || strings.Contains(s, "=== RUN") || !strings.Contains(s, "INNERFAIL") {
		t.Errorf("a nested run printed, without -v:\n%s", s)
	}
}

// checkStacks: the test is called by testing.tRunner, and a goroutine's
// stack holds its function only, as under go test (a helper that names its
// caller's package, jarcoal/httpmock's, found Period's runtime).
func checkStacks(t *testing.T) {
	if st := strings.Split(string(debug.Stack()), "\n"); len(st) < 5 || st[1] != "runtime/debug.Stack()" || !strings.Contains(st[3], "identity.checkStacks(") {
		t.Errorf("debug.Stack() is\n%s\nwant runtime/debug.Stack() on top, then checkStacks", strings.Join(st, "\n"))
	}
	pc, _, _, ok := runtime.Caller(2)
	if fn := runtime.FuncForPC(pc); !ok || fn == nil || fn.Name() != "testing.tRunner" {
		t.Errorf("the test's caller is %v, want testing.tRunner", fn.Name())
	}
	frames := make(chan []string)
	go func() {
		pcs := make([]uintptr, 32)
		fs := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
		var names []string
		for {
			f, more := fs.Next()
			names = append(names, f.Function)
			if !more {
				break
			}
		}
		frames <- names
	}()
	names := <-frames
	if len(names) != 2 || !strings.HasSuffix(names[0], "checkStacks.func1") || names[1] != "runtime.goexit" {
		t.Errorf("a goroutine's stack is %v, want its function and runtime.goexit", names)
	}
	if caller, names := throughOnce(); caller != "example.com/identity.checkStacks" || len(names) < 5 || names[1] != "sync.(*Once).doSlow" || names[2] != "sync.(*Once).Do" || names[3] != "example.com/identity.throughOnce" {
		t.Errorf("within a sync.Once's function, runtime.Caller(4) is %s and the stack %v, want checkStacks and f, doSlow, Do, throughOnce", caller, names)
	}
}

var helperOnce sync.Once

// throughOnce names its caller from within a sync.Once's function, past
// the function, Do's two frames and itself (riverqueue's test helper
// names its caller's package so).
func throughOnce() (caller string, names []string) {
	helperOnce = sync.Once{} // each schedule runs it
	helperOnce.Do(func() {
		pc, _, _, _ := runtime.Caller(4)
		caller = runtime.FuncForPC(pc).Name()
		pcs := make([]uintptr, 32)
		fs := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
		for {
			f, more := fs.Next()
			names = append(names, f.Function)
			if !more {
				break
			}
		}
	})
	return caller, names
}

// TestShort fails unless run with -short.
func TestShort(t *testing.T) {
	if !testing.Short() {
		t.Error("testing.Short() is false")
	}
	count(t)
}

// tester is a test library's view of a *testing.T (go-internal's
// testscript.T), here over a struct that embeds one.
type tester interface{ Parallel() }

type shim struct{ *testing.T }

// Parallel through the interface is the subtest's t.Parallel: the real one
// waited for a parent the model held, for ever (the run was abandoned).
func TestParallelThroughInterface(t *testing.T) {
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			var x tester = shim{t}
			x.Parallel()
			count(t)
		})
	}
}
