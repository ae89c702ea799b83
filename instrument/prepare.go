package instrument

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

const (
	// runtimeModule is Period's own module; rtPath is the package that
	// instrumented code and the generated driver import.
	runtimeModule  = "github.com/period-dev/period"
	rtPath         = runtimeModule + "/rt"
	runtimeVersion = "v0.0.0-00010101000000-000000000000"

	// DriverTest is the test function Prepare adds to every package; the
	// test binary is run with -test.run=^TestPeriodDriver$.
	DriverTest = "TestPeriodDriver"
)

// runtimePackages are the directories of runtimeModule compiled into the
// program under test. They are never instrumented.
var runtimePackages = []string{"rt", "strategy", "trace"}

// rewriteFile is Rewrite; tests swap it to check the overlay plumbing.
var rewriteFile = Rewrite

// PrepareOptions says which packages to prepare and where scratch files go.
type PrepareOptions struct {
	Dir      string   // directory the patterns are relative to (the user's cwd)
	Patterns []string // package patterns as given on the command line ("./pkg/...")
	WorkDir  string   // scratch directory for rewritten files, overlay JSON, extracted runtime
}

// TestPackage is one package ready to be built as an instrumented test binary.
type TestPackage struct {
	ImportPath, Dir, ModuleDir, ModulePath, GoVersion string

	Tests          []string // TestXxx(t *testing.T) functions (in-package, then external _test)
	Overlay        string   // path of the overlay JSON for this package's test build
	Instrumented   []string // import paths of packages rewritten (package itself + main-module deps)
	Uninstrumented []string // non-std dependencies left uncontrolled (outside the main module)
	Notes          []Note
}

// Prepare loads the packages matched by opts.Patterns, rewrites them and the
// packages of their own module they depend on into opts.WorkDir, and writes
// for each package with tests an overlay that adds a driver test running
// every test under the controlled scheduler. The user's files are never
// written. Packages without tests are skipped; a pattern that matches
// nothing or a package that does not compile is an error.
func Prepare(opts PrepareOptions) ([]*TestPackage, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if opts.WorkDir == "" {
		return nil, errors.New("instrument: PrepareOptions.WorkDir is empty")
	}
	work, err := filepath.Abs(opts.WorkDir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	p := &preparer{
		work:    work,
		done:    map[string]*rewritten{},
		goMods:  map[string]string{},
		seenPkg: map[string]bool{},
	}
	var out []*TestPackage
	for _, pat := range patterns {
		loadDir, rel, err := splitPattern(dir, pat)
		if err != nil {
			return nil, err
		}
		pkgs, err := load(loadDir, rel)
		if err != nil {
			return nil, fmt.Errorf("loading %s: %v", pat, err)
		}
		if len(pkgs) == 0 {
			return nil, fmt.Errorf("pattern %s matched no packages", pat)
		}
		if msg := loadErrors(pkgs); msg != "" {
			return nil, errors.New(msg)
		}
		tps, err := p.prepareAll(pkgs)
		if err != nil {
			return nil, err
		}
		out = append(out, tps...)
	}
	return out, nil
}

// Build compiles the instrumented test binary into out. Compile errors come
// back as an error whose text is the compiler's output; thanks to the overlay
// (and the rewriter's //line directives) it names the user's original files.
func (p *TestPackage) Build(ctx context.Context, out string) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-overlay="+p.Overlay, "-vet=off", "-o", out)
	cmd.Dir = p.Dir
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(buf.String())
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("building %s: %s", p.ImportPath, msg)
	}
	return nil
}

// splitPattern turns a command-line pattern into the directory to run the
// loader in and the pattern relative to it, so that a pattern pointing into
// a nested module is resolved by that module. Import-path patterns stay
// relative to dir.
func splitPattern(dir, pat string) (loadDir, rel string, err error) {
	if !isLocalPattern(pat) {
		return dir, pat, nil
	}
	elems := strings.Split(filepath.ToSlash(pat), "/")
	i := 0
	for i < len(elems) && !strings.Contains(elems[i], "...") {
		i++
	}
	base := strings.Join(elems[:i], "/")
	if base == "" {
		base = "/" // an absolute pattern like /...
	}
	if !filepath.IsAbs(base) {
		base = filepath.Join(dir, filepath.FromSlash(base))
	}
	if fi, err := os.Stat(base); err != nil || !fi.IsDir() {
		return "", "", fmt.Errorf("pattern %s: directory %s does not exist", pat, base)
	}
	rel = "."
	if i < len(elems) {
		rel = "./" + strings.Join(elems[i:], "/")
	}
	return base, rel, nil
}

func isLocalPattern(pat string) bool {
	return pat == "." || pat == ".." || filepath.IsAbs(pat) ||
		strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../")
}

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedModule | packages.NeedForTest |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedTypesSizes

func load(dir, pattern string) ([]*packages.Package, error) {
	roots, err := foreignRoots()
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{
		Mode:  loadMode,
		Dir:   dir,
		Tests: true,
		Fset:  token.NewFileSet(),
		// Type-checking the standard library and downloaded modules from
		// source is most of the loading time; their function bodies are
		// never rewritten, so drop them (declarations are all types need).
		ParseFile: func(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
			f, err := parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments)
			if f != nil && isForeign(roots, name) {
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok {
						fd.Body = nil
					}
				}
			}
			return f, err
		},
	}
	return packages.Load(cfg, pattern)
}

// foreignRoots are GOROOT and GOMODCACHE: code there is never instrumented.
var foreignRoots = sync.OnceValues(func() ([]string, error) {
	out, err := exec.Command("go", "env", "GOROOT", "GOMODCACHE").Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %v", err)
	}
	var roots []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			roots = append(roots, filepath.Clean(l)+string(filepath.Separator))
		}
	}
	return roots, nil
})

func isForeign(roots []string, name string) bool {
	for _, r := range roots {
		if strings.HasPrefix(name, r) {
			return true
		}
	}
	return false
}

// loadErrors lists the errors of every loaded package and its dependencies,
// positions first, each once. Type errors in foreign packages are artefacts
// of their dropped function bodies (unused imports): the build reports any
// real ones.
func loadErrors(pkgs []*packages.Package) string {
	roots, _ := foreignRoots()
	seen := map[string]bool{}
	var msgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError && len(p.GoFiles) > 0 && isForeign(roots, p.GoFiles[0]) {
				continue
			}
			s := e.Error()
			if !seen[s] {
				seen[s] = true
				msgs = append(msgs, s)
			}
		}
	})
	if len(msgs) == 0 {
		return ""
	}
	return "errors loading packages:\n" + strings.Join(msgs, "\n")
}

// rewritten is the outcome of rewriting one original file.
type rewritten struct {
	replacement string // path in WorkDir; "" when the rewriter changed nothing
	notes       []Note
}

type preparer struct {
	work      string
	done      map[string]*rewritten // original path -> result, shared by all packages
	goMods    map[string]string     // module dir -> overlaid go.mod ("" for our own module)
	rtDir     string                // where go.mod replacements point the runtime module
	rtOverlay map[string]string     // overlay entries that put the runtime at rtDir
	seenPkg   map[string]bool       // import paths already prepared
}

// testUnit groups the loader's packages that make up one package's tests.
type testUnit struct {
	plain, inPkg, xtest *packages.Package
}

func (p *preparer) prepareAll(pkgs []*packages.Package) ([]*TestPackage, error) {
	units := map[string]*testUnit{}
	var order []string
	unit := func(path string) *testUnit {
		u := units[path]
		if u == nil {
			u = &testUnit{}
			units[path] = u
			order = append(order, path)
		}
		return u
	}
	for _, pkg := range pkgs {
		switch {
		case pkg.ForTest == "":
			if !strings.HasSuffix(pkg.ID, ".test") || pkg.Name != "main" || pkg.ID == pkg.PkgPath && !isTestMain(pkg) {
				unit(pkg.PkgPath).plain = pkg
			}
		case pkg.PkgPath == pkg.ForTest:
			unit(pkg.ForTest).inPkg = pkg
		case pkg.PkgPath == pkg.ForTest+"_test":
			unit(pkg.ForTest).xtest = pkg
		}
	}
	sort.Strings(order)
	var out []*TestPackage
	for _, path := range order {
		if p.seenPkg[path] {
			continue
		}
		p.seenPkg[path] = true
		tp, err := p.prepareUnit(units[path])
		if err != nil {
			return nil, err
		}
		if tp != nil {
			out = append(out, tp)
		}
	}
	return out, nil
}

// isTestMain reports whether pkg is the generated main package of a test
// binary (ID "p.test"), which the loader returns alongside the others.
func isTestMain(pkg *packages.Package) bool {
	for _, f := range pkg.CompiledGoFiles {
		if !strings.HasPrefix(f, pkg.Dir) {
			return true
		}
	}
	return len(pkg.GoFiles) == 0
}

func (p *preparer) prepareUnit(u *testUnit) (*TestPackage, error) {
	base := u.inPkg
	if base == nil {
		base = u.plain
	}
	if base == nil || base.Module == nil {
		return nil, nil // std or GOPATH packages are not supported
	}
	inTests := testFuncs(base)
	var xTests []string
	if u.xtest != nil {
		xTests = testFuncs(u.xtest)
	}
	if len(inTests)+len(xTests) == 0 {
		return nil, nil
	}
	mod := base.Module
	if mod.Path == runtimeModule && isRuntimePackage(base.PkgPath) {
		return nil, fmt.Errorf("%s is part of Period's runtime and cannot be tested under it", base.PkgPath)
	}
	tp := &TestPackage{
		ImportPath: base.PkgPath,
		Dir:        base.Dir,
		ModuleDir:  mod.Dir,
		ModulePath: mod.Path,
		GoVersion:  mod.GoVersion,
		Tests:      append(append([]string(nil), inTests...), xTests...),
	}
	overlay := map[string]string{}

	// The package itself (with its in-package tests), its external tests,
	// and every package of the same module it depends on.
	roots := []*packages.Package{base}
	if u.xtest != nil {
		roots = append(roots, u.xtest)
	}
	instrumented := map[string]bool{}
	uninstrumented := map[string]bool{}
	var deps []*packages.Package
	seen := map[string]bool{}
	var visit func(*packages.Package)
	visit = func(q *packages.Package) {
		if seen[q.ID] {
			return
		}
		seen[q.ID] = true
		for _, path := range keysOf(q.Imports) {
			visit(q.Imports[path])
		}
		switch {
		case q.Module == nil:
			// standard library
		case q.Module.Path != mod.Path:
			uninstrumented[q.PkgPath] = true
		case q.Module.Path == runtimeModule && isRuntimePackage(q.PkgPath):
		case q.PkgPath == base.PkgPath || q == u.xtest:
		default:
			deps = append(deps, q)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	for _, q := range append(roots, deps...) {
		if err := p.rewritePackage(q, tp, overlay); err != nil {
			return nil, err
		}
		if q != u.xtest {
			instrumented[q.PkgPath] = true
		}
	}
	tp.Instrumented = keysOf(instrumented)
	tp.Uninstrumented = keysOf(uninstrumented)

	// The driver test.
	driverPkg := base
	if u.xtest != nil {
		driverPkg = u.xtest
	}
	src, err := driverSource(driverPkg, base.PkgPath, u.xtest != nil, inTests, xTests)
	if err != nil {
		return nil, err
	}
	driverPath, err := driverFile(base)
	if err != nil {
		return nil, err
	}
	driverOut := filepath.Join(p.srcDir(tp.ModulePath, tp.ModuleDir, tp.Dir), filepath.Base(driverPath))
	if err := writeFile(driverOut, src); err != nil {
		return nil, err
	}
	overlay[driverPath] = driverOut

	// The runtime, for modules other than Period's own.
	if mod.Path != runtimeModule {
		gomod, err := p.goModOverlay(mod)
		if err != nil {
			return nil, err
		}
		overlay[mod.GoMod] = gomod
		_, rtFiles, err := p.extractRuntime()
		if err != nil {
			return nil, err
		}
		for k, v := range rtFiles {
			overlay[k] = v
		}
	}

	tp.Overlay = filepath.Join(p.work, "overlay", url.PathEscape(tp.ImportPath)+".json")
	data, err := json.MarshalIndent(struct{ Replace map[string]string }{overlay}, "", "\t")
	if err != nil {
		return nil, err
	}
	if err := writeFile(tp.Overlay, data); err != nil {
		return nil, err
	}
	return tp, nil
}

// rewritePackage runs the rewriter over every file of q (once per file for
// the whole Prepare call) and adds the changed ones to the overlay.
func (p *preparer) rewritePackage(q *packages.Package, tp *TestPackage, overlay map[string]string) error {
	if len(q.Syntax) != len(q.CompiledGoFiles) {
		return fmt.Errorf("%s: loader returned %d syntax trees for %d files", q.ID, len(q.Syntax), len(q.CompiledGoFiles))
	}
	for _, f := range q.CompiledGoFiles {
		if filepath.Dir(f) != q.Dir {
			// cgo output lives in the build cache: leave such packages alone.
			tp.Notes = append(tp.Notes, Note{Pos: token.Position{Filename: q.Dir}, Msg: q.PkgPath + " uses cgo: not instrumented"})
			return nil
		}
	}
	prefix, err := filepath.Rel(q.Module.Dir, q.Dir)
	if err != nil {
		return err
	}
	prefix = filepath.ToSlash(prefix) + "/"
	if prefix == "./" {
		prefix = ""
	}
	opts := RewriteOptions{RTPath: rtPath, GoVersion: q.Module.GoVersion, SitePrefix: prefix, Globals: true}
	for i, file := range q.Syntax {
		orig := q.CompiledGoFiles[i]
		r := p.done[orig]
		if r == nil {
			r, err = p.rewriteOne(q, file, orig, opts)
			if err != nil {
				return err
			}
			p.done[orig] = r
		}
		tp.Notes = append(tp.Notes, r.notes...)
		if r.replacement != "" {
			overlay[orig] = r.replacement
		}
	}
	return nil
}

func (p *preparer) rewriteOne(q *packages.Package, file *ast.File, orig string, opts RewriteOptions) (*rewritten, error) {
	out, changed, notes, err := rewriteFile(q.Fset, file, q.Types, q.TypesInfo, opts)
	if err != nil {
		return nil, fmt.Errorf("instrumenting %s: %v", orig, err)
	}
	r := &rewritten{notes: notes}
	if changed {
		r.replacement = filepath.Join(p.srcDir(q.Module.Path, q.Module.Dir, q.Dir), filepath.Base(orig))
		if err := writeFile(r.replacement, out); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// srcDir is where rewritten files of the package in dir go: the module path
// plus the package's directory inside the module, under WorkDir/src.
func (p *preparer) srcDir(modPath, modDir, dir string) string {
	rel, err := filepath.Rel(modDir, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = url.PathEscape(dir)
	}
	return filepath.Join(p.work, "src", filepath.FromSlash(modPath), rel)
}

func isRuntimePackage(path string) bool {
	for _, d := range runtimePackages {
		full := runtimeModule + "/" + d
		if path == full || strings.HasPrefix(path, full+"/") {
			return true
		}
	}
	return false
}

func writeFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

func keysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
