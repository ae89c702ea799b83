package instrument

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	period "github.com/period-dev/period"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/packages"
)

const prepareData = "testdata/prepare"

// treeHashes maps every file under dir to a hash of its contents: Prepare
// and Build must leave the user's tree exactly as it was.
func treeHashes(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	m := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		m[path] = sha256.Sum256(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// runDriver runs a built test binary the way the period command does and
// returns the tests that recorded themselves, sorted, and the output.
func runDriver(t *testing.T, tp *TestPackage, bin string) ([]string, string) {
	t.Helper()
	marks := filepath.Join(t.TempDir(), "marks")
	cmd := exec.Command(bin, "-test.run=^"+DriverTest+"$", "-test.v")
	cmd.Dir = tp.Dir
	cmd.Env = append(os.Environ(),
		"PREPARE_MARKS="+marks,
		`PERIOD_CONFIG={"Strategy":"native","Budget":1}`)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, out)
	}
	data, err := os.ReadFile(marks)
	if err != nil {
		t.Fatalf("no test ran: %v\n%s", err, out)
	}
	ran := strings.Fields(string(data))
	sort.Strings(ran)
	return ran, string(out)
}

func TestPrepareBuildRun(t *testing.T) {
	cases := []struct {
		module         string
		goVersion      string
		pkg            string
		tests          []string // in the order Prepare lists them
		ran            []string // marks, sorted
		instrumented   []string
		uninstrumented []string
		instrument     string // PrepareOptions.Instrument
	}{
		{
			module: "mod113", goVersion: "1.13", pkg: "example.com/mod113/counter",
			tests:        []string{"TestIncrement", "TestConcurrent"},
			ran:          []string{"counter.TestConcurrent", "counter.TestIncrement"},
			instrumented: []string{"example.com/mod113/counter", "example.com/mod113/internal/store"},
		},
		{
			module: "mod122", goVersion: "1.22", pkg: "example.com/mod122/queue",
			tests:        []string{"TestPushPop", "TestTotal", "TestExternalGoroutine"},
			ran:          []string{"queue.TestPushPop", "queue_test.TestExternalGoroutine", "queue_test.TestTotal"},
			instrumented: []string{"example.com/mod122/queue", "example.com/mod122/util"},
		},
		{
			// A required module (by a replace directive) is instrumented too.
			module: "modreq", goVersion: "1.22", pkg: "example.com/modreq/app",
			tests: []string{"TestQuad"}, ran: []string{"app.TestQuad"},
			instrumented: []string{"example.com/helper", "example.com/modreq/app"},
		},
		{
			module: "modreq113", goVersion: "1.13", pkg: "example.com/modreq113/app",
			tests: []string{"TestQuad"}, ran: []string{"app.TestQuad"},
			instrumented: []string{"example.com/modreq113/app"}, uninstrumented: []string{"example.com/helper"},
			instrument: "module",
		},
	}
	for _, c := range cases {
		c := c
		t.Run(c.module, func(t *testing.T) {
			t.Parallel()
			before := treeHashes(t, prepareData)
			work := t.TempDir()
			tps, err := Prepare(PrepareOptions{Dir: prepareData, Patterns: []string{"./" + c.module + "/..."}, WorkDir: work, Instrument: c.instrument})
			if err != nil {
				t.Fatal(err)
			}
			if len(tps) != 1 {
				t.Fatalf("got %d packages, want 1 (packages without tests are skipped)", len(tps))
			}
			tp := tps[0]
			if tp.ImportPath != c.pkg || tp.GoVersion != c.goVersion || tp.ModulePath != "example.com/"+c.module {
				t.Errorf("got %s (module %s, go %s)", tp.ImportPath, tp.ModulePath, tp.GoVersion)
			}
			if !reflect.DeepEqual(tp.Tests, c.tests) {
				t.Errorf("Tests = %q, want %q", tp.Tests, c.tests)
			}
			if !reflect.DeepEqual(tp.Instrumented, c.instrumented) {
				t.Errorf("Instrumented = %q, want %q", tp.Instrumented, c.instrumented)
			}
			if fmt.Sprint(tp.Uninstrumented) != fmt.Sprint(c.uninstrumented) {
				t.Errorf("Uninstrumented = %q, want %q", tp.Uninstrumented, c.uninstrumented)
			}
			bin := filepath.Join(work, "pkg.test")
			if err := tp.Build(context.Background(), bin); err != nil {
				t.Fatal(err)
			}
			ran, _ := runDriver(t, tp, bin)
			if !reflect.DeepEqual(ran, c.ran) {
				t.Errorf("tests that ran: %q, want %q", ran, c.ran)
			}
			if after := treeHashes(t, prepareData); !reflect.DeepEqual(before, after) {
				t.Error("the user's tree changed")
			}
		})
	}
}

// The driver goes into the external test package and avoids the names that
// package already declares.
func TestPrepareDriverNames(t *testing.T) {
	tps, err := Prepare(PrepareOptions{Dir: prepareData, Patterns: []string{"./mod122/queue"}, WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	src := driverOf(t, tps[0])
	for _, want := range []string{
		"package queue_test",
		`periodrt2 "github.com/period-dev/period/rt"`,
		`periodtesting2 "testing"`,
		`periodpkg "example.com/mod122/queue"`,
		`{Name: "TestPushPop", F: periodpkg.TestPushPop}`,
		`{Name: "TestTotal", F: TestTotal}`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("driver lacks %s:\n%s", want, src)
		}
	}
}

func driverOf(t *testing.T, tp *TestPackage) string {
	t.Helper()
	ov := readOverlay(t, tp.Overlay)
	for orig, repl := range ov {
		if filepath.Dir(orig) == tp.Dir && strings.HasPrefix(filepath.Base(orig), "period_driver") {
			b, err := os.ReadFile(repl)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	t.Fatalf("no driver in %v", ov)
	return ""
}

func readOverlay(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &ov); err != nil {
		t.Fatal(err)
	}
	return ov.Replace
}

// markingRewrite stands in for the rewriter: it makes every file import the
// runtime, use a generic function (as rewritten code does, even in a go 1.13
// module) and announce itself at start-up.
func markingRewrite(fset *token.FileSet, file *ast.File, pkg *types.Package, info *types.Info, opts RewriteOptions) ([]byte, bool, []Note, error) {
	name := filepath.Base(fset.File(file.Pos()).Name())
	if opts.RTPath != rtPath || opts.Globals == strings.HasSuffix(name, "_test.go") {
		return nil, false, nil, fmt.Errorf("unexpected options %+v", opts)
	}
	astutil.AddNamedImport(fset, file, "periodmark", opts.RTPath)
	var buf bytes.Buffer
	buf.WriteString("//go:build go1.21\n\n")
	if err := format.Node(&buf, fset, file); err != nil {
		return nil, false, nil, err
	}
	fmt.Fprintf(&buf, "\nvar _ = periodmark.R[int]\n\nfunc init() { println(\"instrumented %s%s\") }\n", opts.SitePrefix, name)
	note := Note{Pos: fset.Position(file.Package), Msg: "marked"}
	return buf.Bytes(), true, []Note{note}, nil
}

func withRewrite(t *testing.T, f func(*token.FileSet, *ast.File, *types.Package, *types.Info, RewriteOptions) ([]byte, bool, []Note, error)) {
	old := rewriteFile
	rewriteFile = f
	t.Cleanup(func() { rewriteFile = old })
}

// Rewritten files of the package, its tests and its same-module deps are
// the ones compiled, in a go 1.13 module.
func TestPrepareUsesRewrittenFiles(t *testing.T) {
	withRewrite(t, markingRewrite)
	work := t.TempDir()
	tps, err := Prepare(PrepareOptions{Dir: prepareData, Patterns: []string{"./mod113/counter"}, WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	tp := tps[0]
	if len(tp.Notes) != 4 {
		t.Errorf("got %d notes, want one per file (4): %v", len(tp.Notes), tp.Notes)
	}
	bin := filepath.Join(work, "counter.test")
	if err := tp.Build(context.Background(), bin); err != nil {
		t.Fatal(err)
	}
	ran, out := runDriver(t, tp, bin)
	if len(ran) != 2 {
		t.Errorf("tests that ran: %q", ran)
	}
	for _, f := range []string{"counter/counter.go", "counter/counter_test.go", "counter/mark_test.go", "internal/store/store.go"} {
		if !strings.Contains(out, "instrumented "+f+"\n") {
			t.Errorf("%s was not compiled from its rewritten copy:\n%s", f, out)
		}
	}
}

// A compile error in a rewritten file names the user's file, not the copy.
func TestBuildErrorNamesOriginalFile(t *testing.T) {
	withRewrite(t, func(fset *token.FileSet, file *ast.File, pkg *types.Package, info *types.Info, opts RewriteOptions) ([]byte, bool, []Note, error) {
		var buf bytes.Buffer
		if err := format.Node(&buf, fset, file); err != nil {
			return nil, false, nil, err
		}
		if filepath.Base(fset.File(file.Pos()).Name()) == "store.go" {
			// As the rewriter's printer does: the original file's full name.
			buf.WriteString("\n//line " + fset.File(file.Pos()).Name() + ":4\nvar _ int = \"broken\"\n")
		}
		return buf.Bytes(), true, nil, nil
	})
	work := t.TempDir()
	tps, err := Prepare(PrepareOptions{Dir: prepareData, Patterns: []string{"./mod113/..."}, WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	err = tps[0].Build(context.Background(), filepath.Join(work, "x.test"))
	if err == nil {
		t.Fatal("the build succeeded")
	}
	if !strings.Contains(err.Error(), "store.go:4") || strings.Contains(err.Error(), work) {
		t.Errorf("error does not point at the original store.go:4:\n%v", err)
	}
	// The package compiles natively: the error blames Period and quotes the
	// original line the broken construct came from.
	src, rerr := os.ReadFile(filepath.Join(prepareData, "mod113", "internal", "store", "store.go"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	line4 := strings.TrimSpace(strings.Split(string(src), "\n")[3])
	if !strings.Contains(err.Error(), "defect of Period") || !strings.Contains(err.Error(), "\tsource: "+line4) {
		t.Errorf("error does not say the rewrite broke a compiling package, or does not quote %q:\n%v", line4, err)
	}
}

func TestPrepareErrors(t *testing.T) {
	cases := []struct{ dir, pattern, want string }{
		{"", "./broken/...", "bad/bad.go:4:9"},                       // does not compile: original file:line
		{"", "./mod113/nowhere/...", "does not exist"},               // no such directory
		{"", "./...", "matched no packages"},                         // every module below is nested
		{"", "example.com/nothing/here", "example.com/nothing/here"}, // not in any module
		{"modreq", "example.com/helper", "not in the main module"},   // a dependency's own tests
	}
	for _, c := range cases {
		dir := filepath.Join(prepareData, c.dir)
		_, err := Prepare(PrepareOptions{Dir: dir, Patterns: []string{c.pattern}, WorkDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Prepare(%s) = %v, want an error containing %q", c.pattern, err, c.want)
		}
	}
}

// A package that does not compile is reported by go list (the compiler's
// output) and by the type checker, in the package and in its test variant:
// each error is printed once, as file:line relative to the directory.
func TestPrepareCompileErrorOnce(t *testing.T) {
	dir := filepath.Join(prepareData, "broken")
	_, err := Prepare(PrepareOptions{Dir: dir, Patterns: []string{"./..."}, WorkDir: t.TempDir()})
	if err == nil {
		t.Fatal("a package that does not compile was prepared")
	}
	want := "errors loading packages:\nbad/bad.go:4:9: cannot use \"not an int\" (untyped string constant) as int value in return statement"
	if err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// The compiler's errors are preferred to the type checker's (a syntax error
// without the parser's follow-on errors); the type checker's are kept for a
// package go list has no compiler output for.
func TestLoadErrors(t *testing.T) {
	dir := filepath.FromSlash("/src/m")
	plain := &packages.Package{ID: "m/a", PkgPath: "m/a", Errors: []packages.Error{
		{Kind: packages.ListError, Msg: "# m/a\na/a.go:3:9: syntax error: unexpected }\na/b.go:1:1: a note:\n\tdetails"},
		{Kind: packages.ParseError, Pos: filepath.FromSlash("/src/m/a/a.go:3:9"), Msg: "expected operand, found '}'"},
		{Kind: packages.ParseError, Pos: filepath.FromSlash("/src/m/a/a.go:3:11"), Msg: "expected ';', found 'EOF'"},
	}}
	variant := &packages.Package{ID: "m/a [m/a.test]", PkgPath: "m/a", Errors: []packages.Error{
		{Kind: packages.ListError, Msg: "# m/a [m/a.test]\na/a.go:3:9: syntax error: unexpected }\na/b.go:1:1: a note:\n\tdetails"},
	}}
	other := &packages.Package{ID: "m/c", PkgPath: "m/c", Errors: []packages.Error{
		{Kind: packages.TypeError, Pos: filepath.FromSlash("/src/m/c/c.go:5:2"), Msg: "undefined: x"},
		{Kind: packages.TypeError, Pos: filepath.FromSlash("/elsewhere/d.go:7"), Msg: "undefined: y"},
		{Kind: packages.ListError, Msg: "no Go files"},
	}}
	got := loadErrors(dir, dir, []*packages.Package{plain, variant, other})
	want := strings.Join([]string{"errors loading packages:",
		filepath.FromSlash("a/a.go") + ":3:9: syntax error: unexpected }",
		filepath.FromSlash("a/b.go") + ":1:1: a note:\n\tdetails",
		filepath.FromSlash("c/c.go") + ":5:2: undefined: x",
		filepath.FromSlash("/elsewhere/d.go") + ":7: undefined: y",
		"no Go files"}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Same inputs, same outputs: overlays and generated files do not depend on
// map order or timing (only on the work directory's name).
func TestPrepareDeterministic(t *testing.T) {
	withRewrite(t, markingRewrite)
	var snapshots []string
	for i := 0; i < 2; i++ {
		work := t.TempDir()
		tps, err := Prepare(PrepareOptions{Dir: prepareData, Patterns: []string{"./mod122/...", "./mod113/..."}, WorkDir: work})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, tp := range tps {
			fmt.Fprintf(&b, "%s %q %q %q %v\n", tp.ImportPath, tp.Tests, tp.Instrumented, tp.Uninstrumented, tp.Notes)
			ov := readOverlay(t, tp.Overlay)
			for _, orig := range keysOf(ov) {
				data, err := os.ReadFile(ov[orig])
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "%s -> %s\n%s\n", orig, strings.TrimPrefix(ov[orig], work), bytes.ReplaceAll(data, []byte(work), []byte("WORK")))
			}
		}
		snapshots = append(snapshots, b.String())
	}
	if snapshots[0] != snapshots[1] {
		t.Errorf("two Prepare runs differ:\n%s\n----\n%s", snapshots[0], snapshots[1])
	}
}

// Testing Period's own module needs no go.mod overlay: rt is in the module.
func TestPrepareOwnModule(t *testing.T) {
	mod := t.TempDir()
	files := map[string]string{
		"go.mod":            "module " + runtimeModule + "\n\ngo 1.22\n",
		"demo/demo.go":      "package demo\n\nfunc One() int { return 1 }\n",
		"demo/demo_test.go": "package demo\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {\n\tif One() != 1 {\n\t\tt.Fatal(1)\n\t}\n}\n",
	}
	err := period.RuntimeFiles(func(name string, data []byte) error {
		files[name] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := writeFile(filepath.Join(mod, name), []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	work := t.TempDir()
	tps, err := Prepare(PrepareOptions{Dir: mod, Patterns: []string{"./..."}, WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	if len(tps) != 1 || tps[0].ImportPath != runtimeModule+"/demo" {
		t.Fatalf("got %v, want only the demo package (runtime packages are not tested)", tps)
	}
	for orig := range readOverlay(t, tps[0].Overlay) {
		if filepath.Base(orig) == "go.mod" {
			t.Errorf("go.mod overlaid for Period's own module")
		}
	}
	if err := tps[0].Build(context.Background(), filepath.Join(work, "demo.test")); err != nil {
		t.Fatal(err)
	}
}

func TestIsTestName(t *testing.T) {
	for name, want := range map[string]bool{
		"Test": true, "TestA": true, "Test_x": true, "Test1": true, "TestÄ": true,
		"Testx": false, "TestMain": false, "Tes": false, "BenchmarkA": false, "testA": false,
	} {
		if got := isTestName(name); got != want {
			t.Errorf("isTestName(%q) = %v, want %v", name, got, want)
		}
	}
}

// A vendored module builds too (in module mode), and its tree stays as it was.
func TestPrepareVendoredModule(t *testing.T) {
	root := t.TempDir()
	for _, m := range []string{"modreq", "helper"} {
		if err := os.CopyFS(filepath.Join(root, m), os.DirFS(filepath.Join(prepareData, m))); err != nil {
			t.Fatal(err)
		}
	}
	mod := filepath.Join(root, "modreq")
	vendor := exec.Command("go", "mod", "vendor")
	vendor.Dir = mod
	if out, err := vendor.CombinedOutput(); err != nil {
		t.Fatalf("go mod vendor: %v\n%s", err, out)
	}
	before := treeHashes(t, root)
	work := t.TempDir()
	tps, err := Prepare(PrepareOptions{Dir: mod, Patterns: []string{"./..."}, WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(work, "app.test")
	if err := tps[0].Build(context.Background(), bin); err != nil {
		t.Fatal(err)
	}
	if ran, _ := runDriver(t, tps[0], bin); fmt.Sprint(ran) != "[app.TestQuad]" {
		t.Errorf("tests that ran: %q", ran)
	}
	if after := treeHashes(t, root); !reflect.DeepEqual(before, after) {
		t.Error("the user's tree changed")
	}
}

// The embedded runtime is every non-test source file of the runtime's
// directories as they are on disk: nothing missing, no tests.
func TestRuntimeFiles(t *testing.T) {
	var embedded []string
	err := period.RuntimeFiles(func(name string, data []byte) error {
		embedded = append(embedded, name)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	for _, d := range runtimePackages {
		err := filepath.WalkDir(filepath.Join("..", d), func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() && e.Name() == "testdata" {
				return filepath.SkipDir
			}
			ext := filepath.Ext(path)
			if !e.IsDir() && !strings.HasSuffix(path, "_test.go") && (ext == ".go" || ext == ".s" || ext == ".h") {
				rel, _ := filepath.Rel("..", path)
				onDisk = append(onDisk, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(onDisk)
	if !reflect.DeepEqual(embedded, onDisk) {
		t.Errorf("embedded runtime files:\n%q\nwant:\n%q", embedded, onDisk)
	}
	for _, want := range []string{"rt/explore.go", "rt/goid_amd64.s", "strategy/strategy.go"} {
		if sort.SearchStrings(embedded, want) == len(embedded) || embedded[sort.SearchStrings(embedded, want)] != want {
			t.Errorf("%s is not embedded", want)
		}
	}
}

// A dependency whose instrumented copy does not compile is built as it is,
// with a note, and the package under test still builds and runs.
func TestBrokenDependencyRewriteFallsBack(t *testing.T) {
	withRewrite(t, func(fset *token.FileSet, file *ast.File, pkg *types.Package, info *types.Info, opts RewriteOptions) ([]byte, bool, []Note, error) {
		out, changed, notes, err := Rewrite(fset, file, pkg, info, opts)
		if err == nil && pkg.Path() == "example.com/helper" {
			if !changed {
				var buf bytes.Buffer
				format.Node(&buf, fset, file)
				out = buf.Bytes()
			}
			out, changed = append(out, "\nvar _ int = \"broken\"\n"...), true
		}
		return out, changed, notes, err
	})
	work := t.TempDir()
	tps, err := Prepare(PrepareOptions{Dir: prepareData, Patterns: []string{"./modreq/..."}, WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	tp := tps[0]
	if fmt.Sprint(tp.Instrumented) != "[example.com/helper example.com/modreq/app]" {
		t.Fatalf("Instrumented = %v before the build", tp.Instrumented)
	}
	bin := filepath.Join(work, "pkg.test")
	if err := tp.Build(context.Background(), bin); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(tp.Instrumented) != "[example.com/modreq/app]" || fmt.Sprint(tp.Uninstrumented) != "[example.com/helper]" {
		t.Errorf("after the build: Instrumented %v, Uninstrumented %v", tp.Instrumented, tp.Uninstrumented)
	}
	noted := false
	for _, n := range tp.Notes {
		noted = noted || strings.HasPrefix(n.String(), "example.com/helper: not instrumented")
	}
	if !noted {
		t.Errorf("no note about the dependency built as it is: %v", tp.Notes)
	}
	if ran, out := runDriver(t, tp, bin); fmt.Sprint(ran) != "[app.TestQuad]" {
		t.Errorf("ran %v:\n%s", ran, out)
	}
}

func TestDepSelector(t *testing.T) {
	cases := []struct {
		instrument string
		un         []string
		path       string
		want       bool
	}{
		{"", nil, "example.com/a", true},
		{"all", []string{"example.com/a/..."}, "example.com/a/b", false},
		{"all", []string{"example.com/a/..."}, "example.com/ab", true},
		{"module", nil, "example.com/a", false},
		{"example.com/a/...,example.com/c", nil, "example.com/a", true},
		{"example.com/a/...,example.com/c", nil, "example.com/c/d", false},
	}
	for _, c := range cases {
		d, err := newDepSelector(c.instrument, c.un)
		if err != nil {
			t.Fatal(err)
		}
		q := &packages.Package{PkgPath: c.path, Dir: "/m/x", Module: &packages.Module{Path: "example.com", Dir: "/m"}}
		if got := d.selects(q); got != c.want {
			t.Errorf("-instrument=%q -uninstrumented=%q: selects(%s) = %v, want %v", c.instrument, c.un, c.path, got, c.want)
		}
	}
	asm := &packages.Package{PkgPath: "example.com/a", Dir: "/m", Module: &packages.Module{Path: "example.com/a", Dir: "/m"}, OtherFiles: []string{"/m/x_amd64.s"}}
	if d, _ := newDepSelector("", nil); d.selects(asm) {
		t.Error("a package with assembly is selected")
	}
	if _, err := newDepSelector(",", nil); err == nil {
		t.Error("-instrument=, is accepted")
	}

	// A dependency with over 2 MB of generated Go is not instrumented,
	// unless -instrument names it; the same source not marked generated is.
	dir := t.TempDir()
	body := strings.Repeat("var x = 1\n", (3<<20)/10)
	gen, hand := filepath.Join(dir, "gen.go"), filepath.Join(dir, "hand.go")
	os.WriteFile(gen, []byte("// Code generated by ccgo. DO NOT EDIT.\n\npackage lib\n"+body), 0o644)
	os.WriteFile(hand, []byte("// Package lib.\npackage lib\n"+body), 0o644)
	lib := func(file string) *packages.Package {
		return &packages.Package{PkgPath: "example.com/lib", Dir: dir, GoFiles: []string{file}, Module: &packages.Module{Path: "example.com/lib", Dir: dir}}
	}
	all, _ := newDepSelector("", nil)
	if all.selects(lib(gen)) {
		t.Error("a package of 3 MB of generated code is instrumented by default")
	}
	if !all.selects(lib(hand)) {
		t.Error("a package of 3 MB of written code is not instrumented")
	}
	if named, _ := newDepSelector("example.com/lib", nil); !named.selects(lib(gen)) {
		t.Error("-instrument=example.com/lib does not instrument its generated code")
	}
}

// As under go test ./..., a package that does not compile does not stop
// the others: one with tests comes back with its errors, one without
// (a directory of example mains) is left out.
func TestPrepareSetsBrokenPackagesApart(t *testing.T) {
	tps, err := Prepare(PrepareOptions{Dir: filepath.Join(prepareData, "partbroken"), Patterns: []string{"./..."}, WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tp := range tps {
		got = append(got, tp.ImportPath)
	}
	if want := []string{"example.com/partbroken/bad", "example.com/partbroken/good"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("packages %q, want %q", got, want)
	}
	if msg := tps[0].LoadError; !strings.Contains(msg, "bad/bad.go:4:9: cannot use") || len(tps[0].Tests) != 0 {
		t.Errorf("bad: LoadError %q, tests %q", msg, tps[0].Tests)
	}
	if tps[1].LoadError != "" || !reflect.DeepEqual(tps[1].Tests, []string{"TestTwo"}) {
		t.Errorf("good: LoadError %q, tests %q", tps[1].LoadError, tps[1].Tests)
	}
}

// A build that fails for want of disk or memory is not blamed on the
// package or on Period (a full disk's linker error was reported as "this
// is a defect of Period").
func TestMachineShortIsNotADefect(t *testing.T) {
	for msg, want := range map[string]bool{
		"/usr/local/go/pkg/tool/linux_amd64/link: mapping output file failed: no space left on device": true,
		"signal: killed":           true,
		"./p.go:3:2: undefined: x": false,
		"cannot use &T{} (value of type *T) as I value in argument to _prt.Send": false,
	} {
		if got := machineShort(msg); got != want {
			t.Errorf("machineShort(%q) = %v, want %v", msg, got, want)
		}
	}
}

// The test binary has the name go test gives it (tests look at os.Args[0]
// and os.Executable: gopsutil's TestName wants "process.test").
func TestBinaryName(t *testing.T) {
	for path, want := range map[string]string{
		"github.com/shirou/gopsutil/v4/process": "process.test",
		"example.com/bar/v2":                    "bar.test",
		"example.com/v2":                        "example.com.test",
		"example.com/vx":                        "vx.test",
		"v3":                                    "v3.test",
		"example.com/a/v":                       "v.test",
		"example.com/a/v1":                      "v1.test",
		"example.com/a/v0":                      "v0.test",
		"example.com/a/v10":                     "a.test",
	} {
		if got := (&TestPackage{ImportPath: path}).BinaryName(); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
}
