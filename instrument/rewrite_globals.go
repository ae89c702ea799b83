package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
)

// globals appends the package-state snapshot of the variables this file
// declares at package level, so that the engine can restore them before
// every run:
//
//	func _prtglobals_file_2ego() func() {
//		a0, a1 := x, y
//		return func() { x, y = a0, a1 }
//	}
//	var _ = rt.Globals(_prtglobals_file_2ego)
//
// A named function, not a literal: a literal in a package-level initializer
// is one of the package's init.funcN, and would renumber the program's own
// (go.uber.org/fx's TestNopLoggerOptionString prints init.func1).
//
// Variables that contain a lock are copied through reflect: a plain copy is
// what vet's copylocks check rejects.
func (r *rewriter) globals(file *ast.File) {
	var plain, locked []*ast.Ident
	r.packageVars(file, func(n *ast.Ident, v *types.Var) {
		if containsLock(v.Type()) {
			locked = append(locked, n)
		} else {
			plain = append(plain, n)
		}
	})
	if len(plain)+len(locked) == 0 {
		return
	}
	pos := r.end
	name := func(n *ast.Ident) *ast.Ident { return ident(n.Name, pos) }
	var snap, restore []ast.Stmt
	if len(plain) > 0 {
		var tmps, vars, vars2, tmps2 []ast.Expr
		for _, n := range plain {
			t := r.tmp(pos)
			tmps, vars = append(tmps, t), append(vars, name(n))
			tmps2, vars2 = append(tmps2, ident(t.Name, pos)), append(vars2, name(n))
		}
		snap = append(snap, define(pos, tmps, vars...))
		restore = append(restore, &ast.AssignStmt{Lhs: vars2, Tok: token.ASSIGN, Rhs: tmps2})
	}
	for _, n := range locked {
		// t := reflect.New(reflect.TypeOf(&x).Elem()).Elem(); t.Set(reflect.ValueOf(&x).Elem())
		// restore: reflect.ValueOf(&x).Elem().Set(t)
		rf := r.stdName("reflect")
		call := func(fun ast.Expr, args ...ast.Expr) *ast.CallExpr { return &ast.CallExpr{Fun: fun, Args: args} }
		sel := func(x ast.Expr, s string) *ast.SelectorExpr { return &ast.SelectorExpr{X: x, Sel: ident(s, pos)} }
		addr := func() ast.Expr { return &ast.UnaryExpr{Op: token.AND, X: name(n)} }
		elemOf := func() ast.Expr { return call(sel(call(sel(ident(rf, pos), "ValueOf"), addr()), "Elem")) }
		t := r.tmp(pos)
		typ := call(sel(call(sel(ident(rf, pos), "TypeOf"), addr()), "Elem"))
		snap = append(snap,
			define(pos, []ast.Expr{t}, call(sel(call(sel(ident(rf, pos), "New"), typ), "Elem"))),
			&ast.ExprStmt{X: call(sel(ident(t.Name, pos), "Set"), elemOf())})
		restore = append(restore, &ast.ExprStmt{X: call(sel(elemOf(), "Set"), ident(t.Name, pos))})
	}
	funcType := func() *ast.FuncType { return &ast.FuncType{Params: &ast.FieldList{}} }
	restoreLit := &ast.FuncLit{Type: funcType(), Body: &ast.BlockStmt{List: restore}}
	snap = append(snap, &ast.ReturnStmt{Results: []ast.Expr{restoreLit}})
	snapType := funcType()
	snapType.Results = &ast.FieldList{List: []*ast.Field{{Type: funcType()}}}
	fn := r.prefix + "globals_" + identSafe(filepath.Base(r.fset.Position(file.Package).Filename))
	snapFunc := &ast.FuncDecl{Name: ident(fn, pos), Type: snapType, Body: &ast.BlockStmt{List: snap}}
	decl := &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{
		Names:  []*ast.Ident{ident("_", pos)},
		Values: []ast.Expr{r.hook(pos, "Globals", ident(fn, pos))},
	}}}
	file.Decls = append(file.Decls, snapFunc, decl)
}

// roots appends the list of the file's package-level variables whose
// values may lead to a channel, for the walk that tells a leaked goroutine
// from one a package still reaches (rt/reach.go):
//
//	func _prtroots_file_2ego() []interface{} { return []interface{}{&x, &y} }
//	var _ = rt.Roots(_prtroots_file_2ego)
//
// Only files rewritten anyway get it: a file Period leaves as it is
// declares no goroutine, channel or lock of its own worth waiting on.
func (r *rewriter) roots(file *ast.File) {
	var addrs []ast.Expr
	pos := r.end
	r.packageVars(file, func(n *ast.Ident, v *types.Var) {
		if mayLeadToChan(v.Type(), map[types.Type]bool{}) {
			addrs = append(addrs, &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ident(n.Name, pos)})
		}
	})
	if len(addrs) == 0 {
		return
	}
	// interface{}, not any: a package may declare its own any.
	empty := func() ast.Expr {
		return &ast.InterfaceType{Interface: pos, Methods: &ast.FieldList{Opening: pos, Closing: pos}}
	}
	list := &ast.CompositeLit{Type: &ast.ArrayType{Lbrack: pos, Elt: empty()}, Elts: addrs, Lbrace: pos, Rbrace: pos}
	fnType := &ast.FuncType{Func: pos, Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: &ast.ArrayType{Lbrack: pos, Elt: empty()}}}}}
	fn := r.prefix + "roots_" + identSafe(filepath.Base(r.fset.Position(file.Package).Filename))
	decl := &ast.FuncDecl{Name: ident(fn, pos), Type: fnType, Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ReturnStmt{Results: []ast.Expr{list}}}}}
	reg := &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{
		Names:  []*ast.Ident{ident("_", pos)},
		Values: []ast.Expr{r.hook(pos, "Roots", ident(fn, pos))},
	}}}
	file.Decls = append(file.Decls, decl, reg)
}

// packageVars calls f with each named variable file declares at package
// level, but those a //go:linkname directive names: they are another
// package's variable (gofiber/fiber's runtime.rodata, in read-only memory,
// where restoring it faulted), not this package's state.
func (r *rewriter) packageVars(file *ast.File, f func(*ast.Ident, *types.Var)) {
	linked := map[string]bool{}
	for _, cg := range file.Comments {
		for _, c := range cg.List {
			if fs := strings.Fields(c.Text); len(fs) >= 2 && fs[0] == "//go:linkname" {
				linked[fs[1]] = true
			}
		}
	}
	for _, d := range file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			for _, n := range s.(*ast.ValueSpec).Names {
				if v, ok := r.info.Defs[n].(*types.Var); ok && n.Name != "_" && !linked[n.Name] {
					f(n, v)
				}
			}
		}
	}
}

// mayLeadToChan tells whether a value of t can lead to a channel that
// reflection can find: through pointers, fields, elements and interfaces
// (but not error, whose values seldom hold one), not through functions.
func mayLeadToChan(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := types.Unalias(t).(type) {
	case *types.Chan:
		return true
	case *types.Named:
		switch obj := u.Obj(); {
		case obj.Pkg() == nil && obj.Name() == "error":
			return false
		case obj.Pkg() != nil && obj.Pkg().Path() == "sync" && obj.Name() == "Map":
			return true // its entries are behind unsafe pointers; rt reads them with Range
		}
		return mayLeadToChan(u.Underlying(), seen)
	case *types.Pointer:
		return mayLeadToChan(u.Elem(), seen)
	case *types.Slice:
		return mayLeadToChan(u.Elem(), seen)
	case *types.Array:
		return mayLeadToChan(u.Elem(), seen)
	case *types.Map:
		return mayLeadToChan(u.Key(), seen) || mayLeadToChan(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if mayLeadToChan(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Interface:
		return true
	case *types.TypeParam:
		return true
	}
	return false
}

// identSafe maps a file name, one to one, to identifier characters:
// letters and digits stay, every other byte becomes _ and its hex code (file
// names are unique in a package directory, and so are the functions).
func identSafe(name string) string {
	var b strings.Builder
	for _, c := range []byte(name) {
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "_%02x", c)
		}
	}
	return b.String()
}

// containsLock mirrors vet's copylocks: a type is a lock if *T has Lock and
// Unlock methods (sync types, atomic types through their noCopy field);
// structs and arrays containing one are too.
func containsLock(t types.Type) bool {
	return lockIn(t, map[types.Type]bool{})
}

func lockIn(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Struct:
		if hasLockMethods(t) {
			return true
		}
		for i := 0; i < u.NumFields(); i++ {
			if lockIn(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Array:
		return lockIn(u.Elem(), seen)
	}
	return false
}

func hasLockMethods(t types.Type) bool {
	ms := types.NewMethodSet(types.NewPointer(t))
	return ms.Lookup(nil, "Lock") != nil && ms.Lookup(nil, "Unlock") != nil
}
