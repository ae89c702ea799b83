package instrument

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

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
// program under test (embed.go embeds the same list). They are never
// instrumented.
var runtimePackages = []string{"rt", "strategy", "trace"}

// rewriteFile is Rewrite; tests swap it to check the overlay plumbing.
var rewriteFile = Rewrite

// PrepareOptions says which packages to prepare and where scratch files go.
// WorkDir receives src/<module path>/<package dir>/ (rewritten files and the
// driver), overlay/<import path>.json, gomod/<module path>/go.mod (the user's
// go.mod plus the runtime requirement) and periodrt/ (the extracted runtime).
type PrepareOptions struct {
	Dir      string   // directory the patterns are relative to (the user's cwd)
	Patterns []string // package patterns as given on the command line ("./pkg/...")
	WorkDir  string   // scratch directory for rewritten files, overlay JSON, extracted runtime
	Tags     string   // build tags, as go test -tags (comma-separated)

	// Instrument selects the packages of other modules that are
	// instrumented: "" or "all" (every package of the build but the
	// standard library), "module" (the main module only), or
	// comma-separated import path patterns ("example.com/lib/...").
	// Uninstrumented patterns are left out of it. The main module is
	// always instrumented.
	Instrument     string
	Uninstrumented []string

	// BinCache is a directory where built test binaries are kept between
	// runs (bincache.go); "" builds every binary anew.
	BinCache string
}

// TestPackage is one package ready to be built as an instrumented test binary.
type TestPackage struct {
	ImportPath, Dir, ModuleDir, ModulePath, GoVersion string

	Tests          []string // TestXxx(t *testing.T) functions (in-package, then external _test)
	Overlay        string   // path of the overlay JSON for this package's test build
	Instrumented   []string // import paths of packages rewritten (package itself + main-module deps)
	Uninstrumented []string // non-std dependencies left uncontrolled (outside the main module)
	Notes          []Note

	// LoadError, when set, says why the package (or a dependency) does not
	// compile; nothing else is set and it cannot be built. go test fails it
	// the same way.
	LoadError string

	buildFlags []string
	binCache   string              // PrepareOptions.BinCache
	depFiles   map[string][]string // instrumented dependency -> its files in the overlay
	replaces   map[string]string   // module[@version] -> the link standing for its module cache directory
	linkFiles  map[string]string   // overlay entries for files a link lacks (a synthesized go.mod)
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
	var flags []string
	if opts.Tags != "" {
		flags = append(flags, "-tags="+opts.Tags)
	}
	sel, err := newDepSelector(opts.Instrument, opts.Uninstrumented)
	if err != nil {
		return nil, err
	}
	p := &preparer{
		modCache: goModCache(dir),
		deps:     sel,
		flags:    flags,
		dir:      dir,
		work:     work,
		done:     map[string]*rewritten{},
		goMods:   map[string]string{},
		binCache: opts.BinCache,
		seenPkg:  map[string]bool{},
		embedded: map[string]bool{},
	}
	var out []*TestPackage
	for _, pat := range patterns {
		loadDir, rel, err := splitPattern(dir, pat)
		if err != nil {
			return nil, err
		}
		pkgs, err := load(loadDir, true, p.flags, rel)
		if err != nil {
			return nil, fmt.Errorf("loading %s: %v", pat, err)
		}
		if len(pkgs) == 0 {
			return nil, fmt.Errorf("pattern %s matched no packages", pat)
		}
		packages.Visit(pkgs, nil, func(q *packages.Package) {
			for _, f := range q.EmbedFiles {
				p.embedded[f] = true
			}
		})
		pkgs, broken, err := splitBroken(dir, loadDir, pkgs)
		if err != nil {
			return nil, err
		}
		tps, err := p.prepareAll(loadDir, pkgs)
		if err != nil {
			return nil, err
		}
		tps = append(tps, broken...)
		sort.SliceStable(tps, func(i, j int) bool { return tps[i].ImportPath < tps[j].ImportPath })
		out = append(out, tps...)
	}
	return out, nil
}

// splitBroken sets apart the packages a pattern matched that do not compile
// (they or a dependency): as go test ./... does, the others are still
// tested. A broken package with test files comes back as a TestPackage
// whose LoadError says why; one without is dropped (it has nothing to
// explore). If nothing compiles, the errors are the error.
func splitBroken(dir, loadDir string, pkgs []*packages.Package) (ok []*packages.Package, broken []*TestPackage, err error) {
	if loadErrors(dir, loadDir, pkgs) == "" {
		return pkgs, nil, nil
	}
	groups := map[string][]*packages.Package{} // a package with its test variants and test main
	var order []string
	for _, q := range pkgs {
		key := q.ForTest
		if key == "" {
			key = strings.TrimSuffix(q.PkgPath, ".test")
		}
		if groups[key] == nil {
			order = append(order, key)
		}
		groups[key] = append(groups[key], q)
	}
	var msgs []string
	for _, key := range order {
		group := groups[key]
		msg := loadErrors(dir, loadDir, group)
		if msg == "" {
			ok = append(ok, group...)
			continue
		}
		msgs = append(msgs, msg)
		for _, q := range group {
			if q.ForTest != "" {
				broken = append(broken, &TestPackage{ImportPath: key, Dir: group[0].Dir, LoadError: msg})
				break
			}
		}
	}
	if len(ok) == 0 {
		return nil, nil, errors.New(strings.Join(msgs, "\n"))
	}
	return ok, broken, nil
}

// Build compiles the instrumented test binary into out. Compile errors come
// back as an error whose text is the compiler's output; thanks to the overlay
// (and the rewriter's //line directives) it names the user's original files.
//
// A dependency of another module whose instrumented copy does not compile
// is built as it is instead (with a note, and listed in Uninstrumented):
// the user's package still gets tested.
// BinaryName is the name go test gives the package's test binary: the
// last element of the import path, before a major version suffix
// (process.test for .../gopsutil/v4/process, bar.test for .../bar/v2), so
// that a test that looks at os.Args[0] or os.Executable sees what it sees
// under go test.
func (p *TestPackage) BinaryName() string {
	elems := strings.Split(p.ImportPath, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && majorVersion(name) {
		name = elems[len(elems)-2]
	}
	return name + ".test"
}

// majorVersion tells a module path's major version element (v2, v10; not
// v0 or v1), as the go command does.
func majorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] == '0' || s == "v1" {
		return false
	}
	return strings.Trim(s[1:], "0123456789") == ""
}

func (p *TestPackage) Build(ctx context.Context, out string) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if p.binCache != "" {
		return p.buildCached(ctx, out)
	}
	return p.link(ctx, out)
}

// machineShort reports whether a build failed for want of disk space or
// memory rather than because of its source.
func machineShort(msg string) bool {
	for _, m := range []string{"no space left on device", "cannot allocate memory", "out of memory", "signal: killed"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// link runs go test -c into out.
func (p *TestPackage) link(ctx context.Context, out string) error {
	for {
		args := append([]string{"test", "-c", "-overlay=" + p.Overlay, "-vet=off"}, p.buildFlags...)
		cmd := exec.CommandContext(ctx, "go", append(args, "-o", out)...)
		cmd.Dir = p.Dir
		var buf bytes.Buffer
		cmd.Stdout = &buf
		cmd.Stderr = &buf
		err := cmd.Run()
		if err == nil {
			return nil
		}
		msg := strings.TrimSpace(buf.String())
		if msg == "" {
			msg = err.Error()
		}
		if ctx.Err() != nil {
			return fmt.Errorf("building %s: %v", p.ImportPath, ctx.Err())
		}
		if machineShort(msg) {
			// Neither the package's fault nor Period's: a full disk made
			// a linker fail as "not once instrumented" once.
			return fmt.Errorf("building %s: the machine ran out of a resource (free disk space for $TMPDIR, $GOCACHE and $PERIODCACHE, or memory):\n%s", p.ImportPath, msg)
		}
		dropped, derr := p.dropBrokenDeps(msg)
		if derr != nil {
			return derr
		}
		if dropped {
			continue
		}
		if native := p.buildNative(ctx); native != nil {
			return fmt.Errorf("building %s: the package does not compile (go test fails the same way):\n%s", p.ImportPath, native)
		}
		return fmt.Errorf("building %s: the package compiles under go test but not once instrumented: this is a defect of Period (please report it with these lines). Positions are those of the original source; _prt names Period's runtime, which the construct at that line was rewritten to call:\n%s", p.ImportPath, explainBuildErrors(p.Dir, msg))
	}
}

// dropBrokenDeps takes out of the overlay every instrumented dependency the
// compiler's output msg names ("# import/path" heads its errors), and says
// whether it took any.
func (p *TestPackage) dropBrokenDeps(msg string) (bool, error) {
	var broken []string
	first := map[string]string{} // the package's first error, for the note
	cur := ""
	for _, line := range strings.Split(msg, "\n") {
		head, ok := strings.CutPrefix(line, "# ")
		if !ok {
			if cur != "" && first[cur] == "" {
				first[cur] = strings.TrimSpace(line)
			}
			continue
		}
		path, _, _ := strings.Cut(head, " ")
		cur = ""
		if _, ok := p.depFiles[path]; ok {
			broken = append(broken, path)
			cur = path
		}
	}
	if len(broken) == 0 {
		return false, nil
	}
	data, err := os.ReadFile(p.Overlay)
	if err != nil {
		return false, err
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &ov); err != nil {
		return false, fmt.Errorf("%s: %v", p.Overlay, err)
	}
	for _, path := range broken {
		for _, f := range p.depFiles[path] {
			delete(ov.Replace, f)
		}
		delete(p.depFiles, path)
		p.Instrumented = slices.DeleteFunc(p.Instrumented, func(s string) bool { return s == path })
		p.Uninstrumented = append(p.Uninstrumented, path)
		p.Notes = append(p.Notes, Note{Pos: token.Position{Filename: path}, Msg: "not instrumented: its instrumented copy does not compile (a defect of Period: please report it); it runs uncontrolled. The compiler said: " + first[path]})
	}
	sort.Strings(p.Uninstrumented)
	if data, err = json.MarshalIndent(ov, "", "\t"); err != nil {
		return false, err
	}
	return true, os.WriteFile(p.Overlay, data, 0o644)
}

// buildNative compiles the test binary without instrumentation, to tell a
// package that does not compile from one Period's rewriting broke.
func (p *TestPackage) buildNative(ctx context.Context) error {
	args := append([]string{"test", "-c", "-vet=off", "-o", os.DevNull}, p.buildFlags...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = p.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		if msg := strings.TrimSpace(string(out)); msg != "" {
			return errors.New(msg)
		}
		return err
	}
	return nil
}

var compileErrLine = regexp.MustCompile(`^(\S+\.go):(\d+)(?::\d+)?: `)

// explainBuildErrors follows every compiler error with the original source
// line it points at, so that the construct Period mis-rewrote is named.
func explainBuildErrors(dir, msg string) string {
	var b strings.Builder
	for _, line := range strings.Split(msg, "\n") {
		b.WriteString(line)
		b.WriteByte('\n')
		m := compileErrLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		if src := sourceLine(file, m[2]); src != "" {
			fmt.Fprintf(&b, "\tsource: %s\n", src)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func sourceLine(file, line string) string {
	n, err := strconv.Atoi(line)
	if err != nil || n < 1 {
		return ""
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	lines := strings.Split(string(data), "\n")
	if n > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[n-1])
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

// loadMode asks for syntax and types of the packages named; their
// dependencies come from export data (as compiled by go list -export, in
// the build cache), which is much faster than type-checking the standard
// library from source. Same-module dependencies are loaded from source by
// a second call.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedModule | packages.NeedForTest |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedTypesSizes |
	packages.NeedEmbedFiles

func load(dir string, tests bool, flags []string, patterns ...string) ([]*packages.Package, error) {
	cfg := &packages.Config{
		Mode:       loadMode,
		Dir:        dir,
		Tests:      tests,
		Fset:       token.NewFileSet(),
		BuildFlags: flags,
	}
	return packages.Load(cfg, patterns...)
}

// loadErrors lists the errors of every loaded package and its dependencies,
// each once, files relative to dir where they lie below it. A package that
// does not compile has its errors twice (and once more in its test variant):
// from go list, as the compiler's output under a "# package" line, and from
// the type checker. The compiler's are kept (those of go build: a syntax
// error without the parser's follow-on errors), the type checker's only for
// packages go list has no compiler output for. loadDir is where go list ran:
// the compiler's relative file names start there.
func loadErrors(dir, loadDir string, pkgs []*packages.Package) string {
	compiled := map[string]bool{} // packages with compiler output
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
				compiled[p.PkgPath] = true
			}
		}
	})
	seen := map[string]bool{}
	var msgs []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			msgs = append(msgs, s)
		}
	}
	rel := func(file string) string {
		if !filepath.IsAbs(file) {
			file = filepath.Join(loadDir, file)
		}
		if r, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return file
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			switch {
			case e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# "):
				for _, m := range compilerErrors(e.Msg) {
					if p := filePos.FindStringSubmatch(m); p != nil {
						m = rel(p[1]) + m[len(p[1]):]
					}
					add(m)
				}
			case e.Kind != packages.ListError && compiled[p.PkgPath]:
				// The compiler said it already.
			case filePos.MatchString(e.Pos + ": "):
				p := filePos.FindStringSubmatch(e.Pos + ": ")
				add(rel(p[1]) + e.Pos[len(p[1]):] + ": " + e.Msg)
			default:
				add(e.Msg)
			}
		}
	})
	if len(msgs) == 0 {
		return ""
	}
	return "errors loading packages:\n" + strings.Join(msgs, "\n")
}

// compilerErrors splits the compiler's output (a "# package" line, then one
// error per line, continuation lines indented) into its errors.
func compilerErrors(out string) []string {
	var errs []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n")[1:] {
		if l == "" {
			continue
		}
		if (l[0] == ' ' || l[0] == '\t') && len(errs) > 0 {
			errs[len(errs)-1] += "\n" + l
			continue
		}
		errs = append(errs, l)
	}
	return errs
}

// filePos matches the position that starts an error message: file:line: or
// file:line:col: (the file in the first group).
var filePos = regexp.MustCompile(`^(.+?):[0-9]+(?::[0-9]+)?: `)

// rewritten is the outcome of rewriting one original file.
type rewritten struct {
	replacement string // path in WorkDir; "" when the rewriter changed nothing
	notes       []Note
}

type preparer struct {
	deps      depSelector
	modCache  string   // GOMODCACHE, where the overlay may not replace files
	flags     []string // build flags of the user's (-tags): loading and building alike
	dir       string   // the user's directory: load errors name files relative to it
	work      string
	done      map[string]*rewritten // original path -> result, shared by all packages
	goMods    map[string]string     // module dir -> overlaid go.mod ("" for our own module)
	rtDir     string                // where go.mod replacements point the runtime module
	rtOverlay map[string]string     // overlay entries that put the runtime at rtDir
	seenPkg   map[string]bool       // import paths already prepared
	binCache  string                // PrepareOptions.BinCache
	embedded  map[string]bool       // files a //go:embed of a loaded package embeds
}

// testUnit groups the loader's packages that make up one package's tests.
type testUnit struct {
	plain, inPkg, xtest *packages.Package

	base           *packages.Package // inPkg, or plain when there are no in-package tests
	inTests        []string          // test functions of base
	xTests         []string          // test functions of xtest
	embeddedTests  []string          // test functions left out: their file is embedded
	deps           []*packages.Package
	uninstrumented []string
}

// hasTests finds the unit's test functions; false for packages without
// any, and for standard library packages. A test declared in a file that a
// //go:embed embeds is left out: such a file is not instrumented
// (rewritePackage), so the test's t.Name() and t.TempDir() are the driver's
// and its goroutines are not Period's, and its schedules would be no
// schedules (wazero's TestFileSync joined t.Name() to a path and failed).
func (u *testUnit) hasTests(embedded map[string]bool) bool {
	u.base = u.inPkg
	if u.base == nil {
		u.base = u.plain
	}
	if u.base == nil || u.base.Module == nil {
		return false
	}
	var left []string
	u.inTests, left = splitEmbedded(u.base, testFuncs(u.base), embedded)
	u.embeddedTests = left
	if u.xtest != nil {
		u.xTests, left = splitEmbedded(u.xtest, testFuncs(u.xtest), embedded)
		u.embeddedTests = append(u.embeddedTests, left...)
	}
	return len(u.inTests)+len(u.xTests) > 0
}

// walk finds the packages the unit depends on that get instrumented too
// (those of its own module, and those of other modules deps selects) and
// the non-standard packages that stay uncontrolled.
func (u *testUnit) walk(deps depSelector) error {
	mod := u.base.Module
	if !mod.Main {
		return fmt.Errorf("%s is not in the main module: run period inside module %s", u.base.PkgPath, mod.Path)
	}
	if mod.Path == runtimeModule && isRuntimePackage(u.base.PkgPath) {
		return fmt.Errorf("%s is part of Period's runtime and cannot be tested under it", u.base.PkgPath)
	}
	others := map[string]bool{}
	seen := map[string]bool{}  // package IDs
	added := map[string]bool{} // import paths: a package and its test variants count once
	importers := map[string][]*packages.Package{}
	var post []*packages.Package // imports before their importers
	var visit func(*packages.Package)
	visit = func(q *packages.Package) {
		if seen[q.ID] {
			return
		}
		seen[q.ID] = true
		for _, path := range keysOf(q.Imports) {
			importers[q.Imports[path].ID] = append(importers[q.Imports[path].ID], q)
			visit(q.Imports[path])
		}
		post = append(post, q)
		switch {
		case q.Module == nil:
			// standard library
		case q.Module.Path == runtimeModule && isRuntimePackage(q.PkgPath):
		case q.Module.Path != mod.Path && !deps.selects(q):
			others[q.PkgPath] = true
		case q.PkgPath == u.base.PkgPath || q == u.xtest || added[q.PkgPath]:
		default:
			added[q.PkgPath] = true
			u.deps = append(u.deps, q)
		}
	}
	visit(u.base)
	if u.xtest != nil {
		visit(u.xtest)
	}
	// A dependency that only uncontrolled packages import runs only under
	// them, and they synchronise its callers where the model cannot see
	// it: instrumented, its memory accesses made races of goroutines that
	// an uncontrolled channel ordered (klauspost/compress's fse under its
	// zstd, whose pool of encoders is a channel: badger's tables). It stays
	// uncontrolled too. Importers are decided before what they import.
	demoted := map[string]bool{}
	for i := len(post) - 1; i >= 0; i-- {
		q := post[i]
		if !added[q.PkgPath] || q.Module == nil || q.Module.Path == mod.Path || len(importers[q.ID]) == 0 {
			continue
		}
		only := true
		for _, imp := range importers[q.ID] {
			if imp.Module == nil || !others[imp.PkgPath] {
				only = false
				break
			}
		}
		if only {
			others[q.PkgPath], demoted[q.PkgPath] = true, true
		}
	}
	if len(demoted) > 0 {
		u.deps = slices.DeleteFunc(u.deps, func(q *packages.Package) bool { return demoted[q.PkgPath] })
	}
	u.uninstrumented = keysOf(others)
	return nil
}

func (p *preparer) prepareAll(loadDir string, pkgs []*packages.Package) ([]*TestPackage, error) {
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
			if !(pkg.Name == "main" && strings.HasSuffix(pkg.ID, ".test") && isTestMain(pkg)) {
				unit(pkg.PkgPath).plain = pkg
			}
		case pkg.PkgPath == pkg.ForTest:
			unit(pkg.ForTest).inPkg = pkg
		case pkg.PkgPath == pkg.ForTest+"_test":
			unit(pkg.ForTest).xtest = pkg
		}
	}
	sort.Strings(order)

	// Keep the packages with tests, and find the same-module dependencies
	// they need loaded from source.
	var todo []*testUnit
	have := map[string]*packages.Package{} // import path -> package with syntax
	for _, path := range order {
		u := units[path]
		if u.plain != nil {
			have[path] = u.plain
		}
		if p.seenPkg[path] || !u.hasTests(p.embedded) {
			continue
		}
		p.seenPkg[path] = true
		if err := u.walk(p.deps); err != nil {
			return nil, err
		}
		todo = append(todo, u)
	}
	var missing []string
	for _, u := range todo {
		for _, q := range u.deps {
			if have[q.PkgPath] == nil {
				have[q.PkgPath] = q // placeholder until loaded
				missing = append(missing, q.PkgPath)
			}
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		loaded, err := load(loadDir, false, p.flags, missing...)
		if err != nil {
			return nil, fmt.Errorf("loading dependencies: %v", err)
		}
		if msg := loadErrors(p.dir, loadDir, loaded); msg != "" {
			return nil, errors.New(msg)
		}
		for _, q := range loaded {
			have[q.PkgPath] = q
		}
	}

	var out []*TestPackage
	for _, u := range todo {
		for i, q := range u.deps {
			u.deps[i] = have[q.PkgPath]
		}
		tp, err := p.prepareUnit(u)
		if err != nil {
			return nil, err
		}
		out = append(out, tp)
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
	base, mod := u.base, u.base.Module
	tp := &TestPackage{
		ImportPath:     base.PkgPath,
		Dir:            base.Dir,
		ModuleDir:      mod.Dir,
		ModulePath:     mod.Path,
		GoVersion:      mod.GoVersion,
		Tests:          append(append([]string(nil), u.inTests...), externalNames(u.inTests, u.xTests)...),
		Uninstrumented: u.uninstrumented,
		buildFlags:     append([]string(nil), p.flags...),
		binCache:       p.binCache,
	}
	for _, q := range []*packages.Package{u.base, u.xtest} {
		if q == nil {
			continue
		}
		for _, f := range fuzzFuncs(q) {
			tp.Notes = append(tp.Notes, Note{Pos: token.Position{Filename: q.Dir}, Msg: f + ": fuzz targets are not explored (only Test functions are); call its seed inputs from a Test to explore them"})
		}
	}
	if n := len(u.embeddedTests); n > 0 {
		names := u.embeddedTests
		if n > 5 {
			names = append(names[:5:5], "...")
		}
		tp.Notes = append(tp.Notes, Note{Pos: token.Position{Filename: base.Dir}, Msg: fmt.Sprintf("%d test(s) not explored, as their file is embedded by a //go:embed directive and so not instrumented (go test runs them): %s", n, strings.Join(names, ", "))})
	}
	overlay := map[string]string{}

	// The package itself (with its in-package tests), its external tests,
	// and every package of the same module it depends on.
	all := []*packages.Package{base}
	if u.xtest != nil {
		all = append(all, u.xtest)
	}
	all = append(all, u.deps...)
	instrumented := map[string]bool{}
	for _, q := range all {
		if err := p.rewritePackage(q, tp, overlay); err != nil {
			return nil, err
		}
		if q != u.xtest {
			instrumented[q.PkgPath] = true
		}
	}
	tp.Instrumented = keysOf(instrumented)

	// The driver test.
	driverPkg := base
	if u.xtest != nil {
		driverPkg = u.xtest
	}
	src, err := driverSource(driverPkg, base.PkgPath, u.xtest != nil, u.inTests, u.xTests)
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
		for k, v := range tp.linkFiles {
			overlay[k] = v
		}
		gomod, err := p.goModOverlay(mod, tp.replaces)
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
		// vendor/modules.txt cannot list the runtime without a directory
		// for it in the user's tree (the assembler runs there): build in
		// module mode instead, which needs the go.sum a vendored module has.
		if _, err := os.Stat(filepath.Join(mod.Dir, "vendor", "modules.txt")); err == nil {
			tp.buildFlags = append(tp.buildFlags, "-mod=mod")
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
	dep := q.Module.Path != tp.ModulePath
	if dep {
		prefix = depSitePrefix(q)
	}
	goVersion := q.Module.GoVersion
	if goVersion == "" {
		goVersion = "1.16" // what the go command assumes without a go directive
	}
	opts := RewriteOptions{RTPath: rtPath, GoVersion: goVersion, SitePrefix: prefix, Globals: true, Roots: true}
	for i, file := range q.Syntax {
		orig := q.CompiledGoFiles[i]
		if p.embedded[orig] {
			// The overlay would replace the embedded bytes too: a test
			// comparing generated code with its golden file read the
			// rewritten one (connectrpc's protoc-gen-connect-go).
			tp.Notes = append(tp.Notes, Note{Pos: token.Position{Filename: orig}, Msg: "embedded by a //go:embed directive: not instrumented, so that the embedded bytes stay the original's"})
			continue
		}
		r := p.done[orig]
		if r == nil {
			// Package variables of the code under test go back to their
			// state after init before every schedule; those of test files
			// are the tests' own bookkeeping (a sync.Once guarding a
			// registration, a counter of calls) and carry over, as under
			// go test -count=N. Those of other modules carry over too, as
			// the standard library's do. docs/state.md says why.
			opts.Globals = !dep && !strings.HasSuffix(orig, "_test.go")
			r, err = p.rewriteOne(q, file, orig, opts)
			if err != nil {
				return err
			}
			p.done[orig] = r
		}
		tp.Notes = append(tp.Notes, r.notes...)
		if r.replacement != "" {
			at := orig
			if dep {
				if at, err = p.depOverlayPath(q, orig, tp); err != nil {
					return err
				}
				if tp.depFiles == nil {
					tp.depFiles = map[string][]string{}
				}
				tp.depFiles[q.PkgPath] = append(tp.depFiles[q.PkgPath], at)
			}
			overlay[at] = r.replacement
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
