package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	period "github.com/period-dev/period"
)

// These tests build and run rewritten code: the testdata modules under
// testdata/rewrite/run are rewritten file by file into a temporary copy that
// requires Period's runtime through a directory replace. Outside a controlled
// run the hooks behave like the operations they replace, so the modules'
// own tests must pass exactly as they do on the original code, and failures
// must name the original file:line.

// runtimeModuleDir extracts Period's runtime into dir as a go 1.13 module.
func runtimeModuleDir(t *testing.T, dir string) string {
	t.Helper()
	rt := filepath.Join(dir, "period")
	err := period.RuntimeFiles(func(name string, data []byte) error {
		p := filepath.Join(rt, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rt, "go.mod"), []byte("module github.com/period-dev/period\n\ngo 1.13\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return rt
}

var goLine = regexp.MustCompile(`(?m)^go (\S+)`)

// rewriteModule copies module src to dst, rewriting every package (with its
// in-package tests) and making go.mod require the runtime at rtDir.
func rewriteModule(t *testing.T, src, dst, rtDir string) {
	t.Helper()
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := goLine.FindSubmatch(gomod)
	if m == nil {
		t.Fatalf("%s/go.mod has no go line", src)
	}
	goVersion := string(m[1])
	gomod = append(gomod, fmt.Sprintf("\nrequire github.com/period-dev/period v0.0.0-00010101000000-000000000000\n\nreplace github.com/period-dev/period => %s\n", rtDir)...)
	writeTestFile(t, filepath.Join(dst, "go.mod"), gomod)

	dirs := map[string][]string{}
	err = filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(path, ".go") {
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, files := range dirs {
		rel, _ := filepath.Rel(src, dir)
		fset := token.NewFileSet()
		var parsed []*ast.File
		for _, f := range files {
			af, err := parser.ParseFile(fset, f, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, af)
		}
		info := &types.Info{
			Types:        map[ast.Expr]types.TypeAndValue{},
			Defs:         map[*ast.Ident]types.Object{},
			Uses:         map[*ast.Ident]types.Object{},
			Implicits:    map[ast.Node]types.Object{},
			Selections:   map[*ast.SelectorExpr]*types.Selection{},
			Instances:    map[*ast.Ident]types.Instance{},
			FileVersions: map[*ast.File]string{},
		}
		conf := types.Config{Importer: testImporter(), GoVersion: "go" + goVersion}
		pkg, err := conf.Check(rel, fset, parsed, info)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for i, af := range parsed {
			opts := RewriteOptions{GoVersion: goVersion, SitePrefix: filepath.ToSlash(rel) + "/", Globals: !strings.HasSuffix(files[i], "_test.go")}
			out, changed, notes, err := Rewrite(fset, af, pkg, info, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range notes {
				t.Logf("note: %s", n)
			}
			if !changed {
				out, _ = os.ReadFile(files[i])
			}
			writeTestFile(t, filepath.Join(dst, rel, filepath.Base(files[i])), out)
		}
	}
}

func writeTestFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// goCmd runs the go command in dir; env entries are added to the environment.
func goCmd(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off"), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// markLine finds the line of "// MARK:name" in the files of dir.
func markLine(t *testing.T, dir, name string) (file string, line int) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.go"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(data), "\n") {
			if strings.Contains(l, "// MARK:"+name) {
				return f, i + 1
			}
		}
	}
	t.Fatalf("no MARK:%s in %s", name, dir)
	return "", 0
}

func TestRewrittenModulesBuildAndRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds modules")
	}
	work := t.TempDir()
	rtDir := runtimeModuleDir(t, work)
	for _, mod := range []string{"mod113", "mod122"} {
		mod := mod
		t.Run(mod, func(t *testing.T) {
			src, err := filepath.Abs(filepath.Join("testdata", "rewrite", "run", mod))
			if err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(work, mod)
			rewriteModule(t, src, dst, rtDir)
			if out, err := goCmd(dst, nil, "vet", "./..."); err != nil {
				t.Fatalf("go vet on the rewritten module: %v\n%s", err, out)
			}
			// Same behaviour as the original: the module's tests pass.
			if out, err := goCmd(dst, nil, "test", "-count=1", "./..."); err != nil {
				t.Fatalf("go test on the rewritten module: %v\n%s", err, out)
			}
			// A t.Errorf names the original test file and line.
			file, line := markLine(t, src, "errorf")
			out, err := goCmd(dst, []string{"PERIOD_RW_FAIL=errorf"}, "test", "-count=1", "-run", "TestFailsOnRequest", "./...")
			want := filepath.Base(file) + ":" + strconv.Itoa(line) + ": requested failure"
			if err == nil || !strings.Contains(out, want) {
				t.Errorf("t.Errorf output should contain %q:\n%s", want, out)
			}
			// A panic's stack names the original file and line.
			file, line = markLine(t, src, "panic")
			out, err = goCmd(dst, []string{"PERIOD_RW_FAIL=panic"}, "test", "-count=1", "-run", "TestFailsOnRequest", "./...")
			want = file + ":" + strconv.Itoa(line)
			if err == nil || !strings.Contains(out, want) {
				t.Errorf("panic output should contain %q:\n%s", want, out)
			}
		})
	}
}

// TestGoldenOutputsCompile vets every golden want.golden as a package of one
// module: a golden file that does not compile is a wrong golden.
func TestGoldenOutputsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds modules")
	}
	work := t.TempDir()
	rtDir := runtimeModuleDir(t, work)
	dst := filepath.Join(work, "goldens")
	writeTestFile(t, filepath.Join(dst, "go.mod"), []byte(fmt.Sprintf(
		"module example.com/goldens\n\ngo 1.25\n\nrequire github.com/period-dev/period v0.0.0-00010101000000-000000000000\n\nreplace github.com/period-dev/period => %s\n", rtDir)))
	cases := goldenCases(t)
	sort.Strings(cases)
	for _, dir := range cases {
		data, err := os.ReadFile(filepath.Join(dir, "want.golden"))
		if err != nil {
			t.Fatal(err)
		}
		writeTestFile(t, filepath.Join(dst, filepath.Base(dir), "want.go"), data)
	}
	if out, err := goCmd(dst, nil, "vet", "./..."); err != nil {
		t.Fatalf("golden outputs do not vet: %v\n%s", err, out)
	}
}

// TestRewriteSpeed measures Rewrite alone (parsing and type-checking
// excluded) on the largest golden input, a medium file of ~100 lines dense
// with concurrency. It logs the time and asserts nothing about it (machines
// differ); run with -v to see it.
func TestRewriteSpeed(t *testing.T) {
	var biggest []byte
	for _, dir := range goldenCases(t) {
		src, err := os.ReadFile(filepath.Join(dir, "in.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(src) > len(biggest) {
			biggest = src
		}
	}
	const n = 20
	var total time.Duration
	for i := 0; i < n; i++ {
		fset, f, pkg, info := checkSource(t, "in.go", biggest, caseOptions(biggest))
		start := time.Now()
		if _, _, _, err := Rewrite(fset, f, pkg, info, caseOptions(biggest)); err != nil {
			t.Fatal(err)
		}
		total += time.Since(start)
	}
	lines := bytes.Count(biggest, []byte("\n"))
	t.Logf("Rewrite of a %d-line file: %v per file (mean of %d), printing and re-parsing included", lines, total/n, n)
}
