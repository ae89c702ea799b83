package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"
)

// DefaultRTPath is the import path of Period's runtime package.
const DefaultRTPath = "github.com/period-dev/period/rt"

// RewriteOptions configure Rewrite. The caller knows the module and the
// package; Rewrite only sees one file.
type RewriteOptions struct {
	RTPath     string // import path of the runtime package: "github.com/period-dev/period/rt"
	GoVersion  string // the module's go version ("1.13", "1.22"); "" = current
	SitePrefix string // prefix of every site string, e.g. "examples/deadlock/" (set by the caller)
	Globals    bool   // emit the package-variable snapshot for the variables declared in this file
	Roots      bool   // list the file's package-level variables that may hold a channel (rt.Roots: leaks)
}

// Note reports something the user should know: an unsupported or
// uncontrolled construct. A construct with a note is left as it was.
type Note struct {
	Pos token.Position
	Msg string
}

func (n Note) String() string { return n.Pos.String() + ": " + n.Msg }

// Rewrite instruments one type-checked file. out is complete Go source with
// //line directives so that compile errors, t.Errorf lines and panics point at
// the user's original file:line. changed=false means the file needed nothing
// (out is then nil).
//
// Rewrite edits file in place (info is keyed by its nodes, so it rewrites the
// tree it was given): callers must not reuse file afterwards.
func Rewrite(fset *token.FileSet, file *ast.File, pkg *types.Package, info *types.Info, opts RewriteOptions) (out []byte, changed bool, notes []Note, err error) {
	if opts.RTPath == "" {
		opts.RTPath = DefaultRTPath
	}
	r := &rewriter{
		fset:     fset,
		info:     info,
		pkg:      pkg,
		opts:     opts,
		file:     file,
		captured: make(map[*types.Var]bool),
		imports:  make(map[string]string),
	}
	r.prefix = freshPrefix(file, pkg)
	// A file's own //go:build go1.N line can raise its language version
	// above the module's; go/types records it when asked to.
	r.goVersion = opts.GoVersion
	if v := info.FileVersions[file]; v != "" {
		r.goVersion = v
	}
	for _, spec := range file.Imports {
		if spec.Path.Value == `"C"` {
			r.note(spec.Pos(), "cgo: operations in C code are not controlled")
		}
	}
	r.end = file.FileEnd
	r.findShared(file)
	for _, d := range file.Decls {
		r.decl(d)
	}
	r.embeddedTimers(file)
	if opts.Globals {
		r.globals(file)
	}
	if opts.Roots && r.changed {
		r.roots(file)
	}
	if !r.changed {
		return nil, false, r.notes, nil
	}
	r.fixImports(file)
	if err := r.buildConstraint(file); err != nil {
		return nil, false, r.notes, err
	}
	var buf bytes.Buffer
	if r.goBuildLine != "" {
		buf.WriteString(r.goBuildLine + "\n\n")
	}
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent | printer.SourcePos, Tabwidth: 8}
	if err := cfg.Fprint(&buf, fset, file); err != nil {
		return nil, false, r.notes, err
	}
	// A rewrite bug must surface here, not as a puzzling build failure later.
	if _, err := parser.ParseFile(token.NewFileSet(), "", buf.Bytes(), parser.SkipObjectResolution); err != nil {
		return nil, false, r.notes, fmt.Errorf("instrument: rewritten %s does not parse: %v", fset.Position(file.Package).Filename, err)
	}
	return buf.Bytes(), true, r.notes, nil
}

// rewriter holds the state of one file's rewrite.
type rewriter struct {
	fset *token.FileSet
	// end is where declarations added after the file's own go: its end,
	// past its trailing comments (without a position, the printer put
	// those comments inside them).
	end  token.Pos
	info *types.Info
	pkg  *types.Package
	tb   types.Type // testing.TB once looked up (testingTB); Typ[Invalid] if not in the build
	opts RewriteOptions
	file *ast.File

	prefix    string              // name of the rt import; temporaries and extra imports extend it
	ntmp      int                 // temporaries made so far
	simple    int                 // >0 in an if/for/switch header: no blocks there
	goVersion string              // the file's Go language version ("" = current)
	captured  map[*types.Var]bool // locals shared with a func literal or through &x
	imports   map[string]string   // extra std imports (path -> name) the generated code needs
	notes     []Note
	changed   bool
	// labels some goto statement names (gotoTarget), found on first need
	gotoLabels map[types.Object]bool
	// explicit holds selectors of embedded fields the rewriter spelled out
	// (viaEmbeddedIface): no Selections entry, only their operand to rewrite
	explicit map[*ast.SelectorExpr]bool

	goBuildLine string // a //go:build line to write on top of the output
}

// freshPrefix picks the name of the rt import: "_prt", lengthened until no
// identifier of the file or of the package scope starts with it, so that
// neither the import nor the temporaries can clash with user names.
func freshPrefix(file *ast.File, pkg *types.Package) string {
	names := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			names[id.Name] = true
		}
		return true
	})
	if pkg != nil {
		for _, n := range pkg.Scope().Names() {
			names[n] = true
		}
	}
	p := "_prt"
	for {
		clash := false
		for n := range names {
			if strings.HasPrefix(n, p) {
				clash = true
				break
			}
		}
		if !clash {
			return p
		}
		p += "_"
	}
}

func (r *rewriter) note(pos token.Pos, format string, args ...interface{}) {
	r.notes = append(r.notes, Note{Pos: r.fset.Position(pos), Msg: fmt.Sprintf(format, args...)})
}

// site is the string literal naming the original operation at pos.
func (r *rewriter) site(pos token.Pos) *ast.BasicLit {
	p := r.fset.Position(pos)
	s := r.opts.SitePrefix + filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
	return &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(s)}
}

// hook builds a call of rt function name. Every generated node carries pos
// so that the printer's //line directives name the original line.
func (r *rewriter) hook(pos token.Pos, name string, args ...ast.Expr) *ast.CallExpr {
	r.changed = true
	return &ast.CallExpr{Fun: r.rtSel(pos, name), Lparen: pos, Args: args, Rparen: pos}
}

func (r *rewriter) rtSel(pos token.Pos, name string) *ast.SelectorExpr {
	return &ast.SelectorExpr{X: ident(r.prefix, pos), Sel: ident(name, pos)}
}

// stdName returns the name under which the generated code refers to a
// standard package it needs (e.g. "sync" for method expressions).
func (r *rewriter) stdName(path string) string {
	if n, ok := r.imports[path]; ok {
		return n
	}
	n := r.prefix + filepath.Base(path)
	r.imports[path] = n
	return n
}

func (r *rewriter) tmp(pos token.Pos) *ast.Ident {
	id := ident(r.prefix+strconv.Itoa(r.ntmp), pos)
	r.ntmp++
	return id
}

func ident(name string, pos token.Pos) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }

// define builds "lhs0, lhs1 := rhs...".
func define(pos token.Pos, lhs []ast.Expr, rhs ...ast.Expr) *ast.AssignStmt {
	return &ast.AssignStmt{Lhs: lhs, TokPos: pos, Tok: token.DEFINE, Rhs: rhs}
}

func block(pos token.Pos, list ...ast.Stmt) *ast.BlockStmt {
	return &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: pos}
}

func (r *rewriter) decl(d ast.Decl) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Body != nil {
			r.block(d.Body)
		} else {
			r.linkedClock(d)
		}
	case *ast.GenDecl:
		if d.Tok == token.VAR {
			for _, s := range d.Specs {
				r.valueSpec(s.(*ast.ValueSpec))
			}
		}
	}
}

// fixImports adds the rt import (and any standard package the generated code
// names) and turns imports whose every use was rewritten away into blank
// imports, which keeps their initialization and avoids "imported and not used".
func (r *rewriter) fixImports(file *ast.File) {
	used := map[interface{}]bool{} // *types.PkgName, or *types.Package for dot imports
	ast.Inspect(file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := r.info.Uses[id]; obj != nil {
				if pn, ok := obj.(*types.PkgName); ok {
					used[pn] = true
				} else if obj.Pkg() != nil && obj.Pkg() != r.pkg {
					used[obj.Pkg()] = true // dot imports
				}
			}
		}
		return true
	})
	for _, spec := range file.Imports {
		if spec.Path.Value == `"C"` || (spec.Name != nil && spec.Name.Name == "_") {
			continue
		}
		var obj types.Object
		if spec.Name != nil {
			obj = r.info.Defs[spec.Name]
		} else {
			obj = r.info.Implicits[spec]
		}
		pn, ok := obj.(*types.PkgName)
		if !ok {
			continue
		}
		if spec.Name != nil && spec.Name.Name == "." {
			if !used[pn.Imported()] {
				spec.Name.Name = "_"
			}
			continue
		}
		if !used[pn] {
			spec.Name = ident("_", spec.Pos())
		}
	}
	// New imports go right after the last import declaration, one
	// declaration each (a grouped declaration would need valid parens).
	// They carry the position where the imports end, so that the printer
	// keeps the comments that follow (doc comments, //go:embed) after them.
	at, pos := 0, file.Name.End()
	for i, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			at, pos = i+1, g.End()
		}
	}
	// Only the names the generated code still uses: a hook can be built
	// and then dropped (rt.IO around a deferred call's receiver), and a
	// file whose every hook went so needs no import ("imported and not
	// used" in spiffe/go-spiffe's examples_test.go).
	generated := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := s.X.(*ast.Ident); ok && r.info.Uses[x] == nil {
				generated[x.Name] = true
			}
		}
		return true
	})
	var specs []*ast.ImportSpec
	if generated[r.prefix] {
		specs = append(specs, &ast.ImportSpec{Name: ident(r.prefix, pos), Path: &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(r.opts.RTPath)}})
	}
	for _, path := range sortedKeys(r.imports) {
		if generated[r.imports[path]] {
			specs = append(specs, &ast.ImportSpec{Name: ident(r.imports[path], pos), Path: &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(path)}})
		}
	}
	var decls []ast.Decl
	for _, s := range specs {
		decls = append(decls, &ast.GenDecl{TokPos: pos, Tok: token.IMPORT, Specs: []ast.Spec{s}})
		file.Imports = append(file.Imports, s)
	}
	file.Decls = append(file.Decls[:at], append(decls, file.Decls[at:]...)...)
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
}

// buildConstraint makes files of modules older than Go 1.21 build with the
// go1.21 language (the hooks are generic): the file's constraint becomes
// "(old) && go1.21". Modules at 1.21 or later are left alone: a go1.2x line
// could change their loop-variable semantics.
func (r *rewriter) buildConstraint(file *ast.File) error {
	if !versionBefore(r.goVersion, 21) {
		return nil
	}
	var goBuild *ast.Comment
	var plus []constraint.Expr
	for _, g := range file.Comments {
		if g.Pos() >= file.Package {
			break
		}
		kept := g.List[:0]
		for _, c := range g.List {
			switch {
			case constraint.IsGoBuild(c.Text) && goBuild == nil:
				goBuild = c
			case constraint.IsPlusBuild(c.Text):
				x, err := constraint.Parse(c.Text)
				if err != nil {
					return err
				}
				plus = append(plus, x)
				continue // dropped: a //go:build line now says it all
			}
			kept = append(kept, c)
		}
		g.List = kept
	}
	var old constraint.Expr
	if goBuild != nil {
		x, err := constraint.Parse(goBuild.Text)
		if err != nil {
			return err
		}
		old = x
	} else {
		for _, x := range plus {
			if old == nil {
				old = x
			} else {
				old = &constraint.AndExpr{X: old, Y: x}
			}
		}
	}
	// Comment groups emptied by dropping // +build lines must go.
	kept := file.Comments[:0]
	for _, g := range file.Comments {
		if len(g.List) > 0 {
			kept = append(kept, g)
		}
	}
	file.Comments = kept
	if file.Doc != nil && len(file.Doc.List) == 0 {
		file.Doc = nil
	}
	var line constraint.Expr = &constraint.TagExpr{Tag: "go1.21"}
	if old != nil {
		line = &constraint.AndExpr{X: old, Y: line}
	}
	if goBuild != nil {
		goBuild.Text = "//go:build " + line.String()
	} else {
		// No //go:build line (maybe // +build ones): write one on top.
		r.goBuildLine = "//go:build " + line.String()
	}
	return nil
}

// versionBefore reports whether Go version v ("1.13", "go1.20.3") is older
// than 1.minor. "" means the current toolchain, which is never older.
func versionBefore(v string, minor int) bool {
	v = strings.TrimPrefix(v, "go")
	if v == "" {
		return false
	}
	parts := strings.Split(v, ".")
	if len(parts) < 2 || parts[0] != "1" {
		return false
	}
	digits := parts[1]
	for i, c := range digits {
		if c < '0' || c > '9' {
			digits = digits[:i]
			break
		}
	}
	n, err := strconv.Atoi(digits)
	return err == nil && n < minor
}
