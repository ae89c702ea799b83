package instrument

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"
)

// TestRewriteStdCorpus is a robustness check on real code: it rewrites every
// standard package that a module could copy (no internal imports, no
// assembly, no cgo), with globals, and builds and vets the copies. It takes a
// minute, so it only runs with PERIOD_RW_CORPUS=1.
func TestRewriteStdCorpus(t *testing.T) {
	if os.Getenv("PERIOD_RW_CORPUS") == "" {
		t.Skip("set PERIOD_RW_CORPUS=1 to rewrite and build the standard library corpus")
	}
	out, err := exec.Command("go", "list", "-json", "std").Output()
	if err != nil {
		t.Fatal(err)
	}
	type listed struct {
		ImportPath, Dir, Name     string
		GoFiles, SFiles, CgoFiles []string
		Imports, IgnoredGoFiles   []string
		EmbedFiles                []string
	}
	work := t.TempDir()
	rtDir := runtimeModuleDir(t, work)
	dst := filepath.Join(work, "stdrw")
	writeTestFile(t, filepath.Join(dst, "go.mod"), []byte("module stdrw\n\ngo 1.26\n\nrequire github.com/period-dev/period v0.0.0-00010101000000-000000000000\n\nreplace github.com/period-dev/period => "+rtDir+"\n"))
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs, files, changed, notes, lines int
	var spent time.Duration
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.Name == "main" || len(p.SFiles)+len(p.CgoFiles)+len(p.EmbedFiles) > 0 || strings.Contains(p.ImportPath, "internal") ||
			strings.HasPrefix(p.ImportPath, "vendor/") || p.ImportPath == "unsafe" || p.ImportPath == "builtin" {
			continue
		}
		internal := false
		for _, imp := range p.Imports {
			if strings.Contains(imp, "internal") || strings.HasPrefix(imp, "vendor/") || imp == "C" {
				internal = true
			}
		}
		if internal {
			continue
		}
		fset := token.NewFileSet()
		var parsed []*ast.File
		for _, f := range p.GoFiles {
			af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, af)
		}
		info := &types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Defs:       map[*ast.Ident]types.Object{},
			Uses:       map[*ast.Ident]types.Object{},
			Implicits:  map[ast.Node]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
			Instances:  map[*ast.Ident]types.Instance{},
		}
		conf := types.Config{Importer: testImporter()}
		pkg, err := conf.Check(p.ImportPath, fset, parsed, info)
		if err != nil {
			t.Logf("%s: skipped, does not type-check alone: %v", p.ImportPath, err)
			continue
		}
		pkgs++
		for i, af := range parsed {
			files++
			lines += fset.File(af.Pos()).LineCount()
			start := time.Now()
			src, _, ns, err := Rewrite(fset, af, pkg, info, RewriteOptions{SitePrefix: p.ImportPath + "/", Globals: true})
			spent += time.Since(start)
			if err != nil {
				t.Errorf("%s: %v", p.GoFiles[i], err)
				continue
			}
			notes += len(ns)
			for _, n := range ns {
				t.Logf("note: %s", n)
			}
			if src == nil {
				src, _ = os.ReadFile(filepath.Join(p.Dir, p.GoFiles[i]))
			} else {
				changed++
			}
			writeTestFile(t, filepath.Join(dst, p.ImportPath, p.GoFiles[i]), src)
		}
	}
	t.Logf("rewrote %d packages, %d files, %d lines (%d files changed), %d notes; Rewrite took %v (%v per 1000 lines)",
		pkgs, files, lines, changed, notes, spent, spent*1000/time.Duration(lines))
	if out, err := goCmd(dst, nil, "build", "./..."); err != nil {
		t.Fatalf("rewritten standard packages do not build: %v\n%s", err, out)
	}
	if out, err := goCmd(dst, nil, "vet", "./..."); err != nil {
		t.Logf("go vet on the rewritten corpus:\n%s", out)
	}
}

// TestRewriteXSyncAndRunItsTests rewrites golang.org/x/sync (errgroup,
// semaphore, singleflight, syncmap: concurrency code with its own tests),
// tests included, and runs its tests on the rewritten copy: they must pass
// as on the original. Runs with PERIOD_RW_CORPUS=1.
func TestRewriteXSyncAndRunItsTests(t *testing.T) {
	if os.Getenv("PERIOD_RW_CORPUS") == "" {
		t.Skip("set PERIOD_RW_CORPUS=1 to rewrite and test golang.org/x/sync")
	}
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(strings.TrimSpace(string(modcache)), "golang.org", "x", "sync@v0.22.0")
	if _, err := os.Stat(src); err != nil {
		t.Skip("golang.org/x/sync@v0.22.0 is not in the module cache")
	}
	work := t.TempDir()
	if keep := os.Getenv("PERIOD_RW_KEEP"); keep != "" {
		work = keep // keep the rewritten copy to read it
	}
	rtDir := runtimeModuleDir(t, work)
	dst := filepath.Join(work, "xsync")
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		writeTestFile(t, filepath.Join(dst, rel), data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax | packages.NeedTypes |
			packages.NeedTypesInfo | packages.NeedModule,
		Dir:   dst,
		Tests: true,
		Env:   append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off"),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]bool{}
	var files, changed int
	// Test variants hold the package files too: rewrite them first so each
	// file is rewritten with the tests' view of its package.
	for _, testVariants := range []bool{true, false} {
		for _, p := range pkgs {
			if len(p.Errors) > 0 {
				t.Fatalf("%s: %v", p.ID, p.Errors)
			}
			if strings.HasSuffix(p.ID, ".test") || strings.Contains(p.ID, " [") != testVariants {
				continue
			}
			for i, f := range p.Syntax {
				name := p.CompiledGoFiles[i]
				if done[name] {
					continue
				}
				done[name] = true
				files++
				out, ok, _, err := Rewrite(p.Fset, f, p.Types, p.TypesInfo, RewriteOptions{GoVersion: "1.25", SitePrefix: p.PkgPath + "/", Globals: !strings.HasSuffix(name, "_test.go")})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if ok {
					changed++
					writeTestFile(t, name, out)
				}
			}
		}
	}
	t.Logf("rewrote %d of %d files", changed, files)
	gomod, _ := os.ReadFile(filepath.Join(dst, "go.mod"))
	gomod = append(gomod, "\nrequire github.com/period-dev/period v0.0.0-00010101000000-000000000000\n\nreplace github.com/period-dev/period => "+rtDir+"\n"...)
	writeTestFile(t, filepath.Join(dst, "go.mod"), gomod)
	if out, err := goCmd(dst, nil, "vet", "./..."); err != nil {
		t.Fatalf("go vet on rewritten x/sync: %v\n%s", err, out)
	}
	if out, err := goCmd(dst, nil, "test", "-count=1", "-short", "./..."); err != nil {
		t.Fatalf("x/sync's tests fail on the rewritten copy: %v\n%s", err, out)
	}
}
