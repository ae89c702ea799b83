package instrument

import (
	"bytes"
	"flag"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden want.golden files of testdata/rewrite")

// The importer is shared: it caches the standard packages it has loaded.
var (
	stdImporterOnce sync.Once
	stdImporter     types.Importer
)

func testImporter() types.Importer {
	stdImporterOnce.Do(func() { stdImporter = importer.ForCompiler(token.NewFileSet(), "gc", nil) })
	return stdImporter
}

// optsLine is the first line of an in.go that sets options:
// "// rewrite: go=1.13 globals prefix=x/".
var optsLine = regexp.MustCompile(`^// rewrite:(.*)\n`)

func caseOptions(src []byte) RewriteOptions {
	opts := RewriteOptions{RTPath: DefaultRTPath}
	m := optsLine.FindSubmatch(src)
	if m == nil {
		return opts
	}
	for _, f := range strings.Fields(string(m[1])) {
		switch {
		case f == "globals":
			opts.Globals = true
		case strings.HasPrefix(f, "go="):
			opts.GoVersion = strings.TrimPrefix(f, "go=")
		case strings.HasPrefix(f, "prefix="):
			opts.SitePrefix = strings.TrimPrefix(f, "prefix=")
		}
	}
	return opts
}

// rewriteSource type-checks one file (package name from the source) and
// rewrites it. name is the file name used in sites and //line directives.
func rewriteSource(t testing.TB, name string, src []byte, opts RewriteOptions) ([]byte, bool, []Note) {
	t.Helper()
	fset, f, pkg, info := checkSource(t, name, src, opts)
	out, changed, notes, err := Rewrite(fset, f, pkg, info, opts)
	if err != nil {
		t.Fatal(err)
	}
	return out, changed, notes
}

// checkSource parses and type-checks one file.
func checkSource(t testing.TB, name string, src []byte, opts RewriteOptions) (*token.FileSet, *ast.File, *types.Package, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
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
	conf := types.Config{Importer: testImporter()}
	if opts.GoVersion != "" {
		conf.GoVersion = "go" + opts.GoVersion
	}
	pkg, err := conf.Check(f.Name.Name, fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatalf("%s does not type-check: %v", name, err)
	}
	return fset, f, pkg, info
}

func goldenCases(t *testing.T) []string {
	dirs, err := filepath.Glob(filepath.Join("testdata", "rewrite", "*", "in.go"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for i, d := range dirs {
		dirs[i] = filepath.Dir(d)
	}
	return dirs
}

// TestRewriteGolden compares the rewrite of every testdata/rewrite/<case>/in.go
// with want.golden, byte for byte (the rewriter's output is compiled, never
// gofmt-ed, so the golden files are not .go files). Notes are compared with
// the "// note: regexp" comments of in.go, by line: a missing note fails as
// surely as an unexpected one.
func TestRewriteGolden(t *testing.T) {
	for _, dir := range goldenCases(t) {
		dir := dir
		t.Run(filepath.Base(dir), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, "in.go"))
			if err != nil {
				t.Fatal(err)
			}
			out, changed, notes := rewriteSource(t, "in.go", src, caseOptions(src))
			if !changed {
				out = src // "nothing to do" cases keep their input as golden
			}
			checkNotes(t, src, notes)
			wantPath := filepath.Join(dir, "want.golden")
			if *update {
				if err := os.WriteFile(wantPath, out, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(wantPath)
			if err != nil {
				t.Fatalf("%v (run go test -run TestRewriteGolden -update)", err)
			}
			if !bytes.Equal(out, want) {
				t.Errorf("rewrite of %s differs from want.golden; got:\n%s", dir, out)
			}
		})
	}
}

var noteComment = regexp.MustCompile(`// note: (.*)$`)

func checkNotes(t *testing.T, src []byte, notes []Note) {
	t.Helper()
	want := map[int]*regexp.Regexp{}
	for i, line := range strings.Split(string(src), "\n") {
		if m := noteComment.FindStringSubmatch(line); m != nil {
			want[i+1] = regexp.MustCompile(m[1])
		}
	}
	for _, n := range notes {
		re := want[n.Pos.Line]
		if re == nil || !re.MatchString(n.Msg) {
			t.Errorf("unexpected note %s", n)
			continue
		}
		delete(want, n.Pos.Line)
	}
	for line, re := range want {
		t.Errorf("in.go:%d: missing note matching %q", line, re)
	}
}

// TestRewriteDeterministic: the same input gives the same bytes.
func TestRewriteDeterministic(t *testing.T) {
	for _, dir := range goldenCases(t) {
		src, err := os.ReadFile(filepath.Join(dir, "in.go"))
		if err != nil {
			t.Fatal(err)
		}
		a, _, _ := rewriteSource(t, "in.go", src, caseOptions(src))
		b, _, _ := rewriteSource(t, "in.go", src, caseOptions(src))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two rewrites differ", dir)
		}
	}
}

func TestUnchangedFile(t *testing.T) {
	src := []byte("package p\n\nfunc f(x int) int { y := x + 1; return y * 2 }\n")
	out, changed, notes := rewriteSource(t, "p.go", src, RewriteOptions{})
	if changed || out != nil || len(notes) != 0 {
		t.Fatalf("got changed=%v out=%q notes=%v, want nothing", changed, out, notes)
	}
}

func TestSitePrefixAndName(t *testing.T) {
	src := []byte("package p\n\nfunc f(ch chan int) {\n\tch <- 1\n}\n")
	out, _, _ := rewriteSource(t, "/abs/dir/p.go", src, RewriteOptions{SitePrefix: "ex/dl/"})
	if !bytes.Contains(out, []byte(`.Send("ex/dl/p.go:4", ch, 1)`)) {
		t.Fatalf("site not prefixed or wrong line:\n%s", out)
	}
	if !bytes.Contains(out, []byte("//line /abs/dir/p.go:")) {
		t.Fatalf("no //line directive naming the original file:\n%s", out)
	}
}

func TestVersionBefore(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{{"1.13", true}, {"go1.20.3", true}, {"1.21", false}, {"1.22", false}, {"", false}, {"1.9", true}, {"1.21rc1", false}, {"1.20rc1", true}} {
		if got := versionBefore(c.v, 21); got != c.want {
			t.Errorf("versionBefore(%q, 21) = %v, want %v", c.v, got, c.want)
		}
	}
}

func TestFreshPrefixAvoidsUserNames(t *testing.T) {
	src := []byte("package p\n\nvar _prt0 = 1\n\nfunc f(ch chan int) { ch <- _prt0 }\n")
	out, _, _ := rewriteSource(t, "p.go", src, RewriteOptions{})
	if !bytes.Contains(out, []byte(`_prt_ "github.com/period-dev/period/rt"`)) {
		t.Fatalf("rt import should be renamed to avoid _prt0:\n%s", out)
	}
}

func TestCgoFileGetsANote(t *testing.T) {
	src := "package p\n\n// int twice(int x) { return 2*x; }\nimport \"C\"\n\nfunc f(ch chan int) { ch <- int(C.twice(1)) }\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{FakeImportC: true}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	out, changed, notes, err := Rewrite(fset, f, pkg, info, RewriteOptions{})
	if err != nil || !changed {
		t.Fatalf("changed=%v err=%v", changed, err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0].Msg, "cgo") || notes[0].Pos.Line != 4 {
		t.Errorf("want one cgo note at line 4, got %v", notes)
	}
	if !bytes.Contains(out, []byte("// int twice(int x) { return 2*x; }\nimport \"C\"")) {
		t.Errorf("the cgo preamble must stay right above import \"C\":\n%s", out)
	}
}

// Declarations the rewriter adds at the end of a file (the globals'
// snapshot, an embedded timer's methods) come after the file's trailing
// comments: printed without positions, they were interleaved with them
// (yuin/gopher-lua's state.go ends in "/* }}} */" and "//", and its
// rewrite did not parse).
func TestTrailingCommentsStayOutOfAddedDecls(t *testing.T) {
	src := []byte("package p\n\nimport \"time\"\n\nvar pool []int\n\ntype tm struct{ time.Timer }\n\nfunc f() { pool = append(pool, 1) }\n\n/* }}} */\n\n/* }}} */\n\n//\n")
	out, _, _ := rewriteSource(t, "p.go", src, RewriteOptions{RTPath: DefaultRTPath, Globals: true})
	if _, err := parser.ParseFile(token.NewFileSet(), "", out, 0); err != nil {
		t.Fatalf("rewritten file does not parse: %v\n%s", err, out)
	}
	added := bytes.Index(out, []byte("_prtrecv"))
	if last := bytes.LastIndex(out, []byte("/* }}} */")); added < 0 || last > added || bytes.LastIndex(out, []byte("//\n")) > added {
		t.Fatalf("the file's trailing comments are inside the added declarations:\n%s", out)
	}
}
