package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Structs that embed a *time.Timer or *time.Ticker (clockwork's realTimer,
// a retry helper's timer wrapper) get Stop and Reset through promotion, and
// a call through an interface (clockwork.Timer's Stop) reaches the real
// method on the virtual timer, which panics ("Stop called on uninitialized
// Timer") or stops nothing. embeddedTimers gives such a struct methods of
// its own that call the hooks: they shadow the promoted ones, so every call,
// static or through an interface, reaches the virtual clock.
func (r *rewriter) embeddedTimers(file *ast.File) {
	var decls []ast.Decl
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			tn, ok := r.info.Defs[ts.Name].(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok {
				continue
			}
			st, ok := named.Underlying().(*types.Struct)
			if !ok {
				continue
			}
			for i := 0; i < st.NumFields(); i++ {
				f := st.Field(i)
				if !f.Embedded() {
					continue
				}
				typ, ptr := f.Type(), false
				if p, ok := typ.(*types.Pointer); ok {
					typ, ptr = p.Elem(), true
				}
				tnamed, ok := typ.(*types.Named)
				if !ok || tnamed.Obj().Pkg() == nil || tnamed.Obj().Pkg().Path() != "time" {
					continue
				}
				kind := tnamed.Obj().Name()
				if kind != "Timer" && kind != "Ticker" {
					continue
				}
				if named.TypeParams().Len() > 0 {
					r.note(ts.Pos(), "generic type embedding a time.%s: its promoted Stop and Reset, called through an interface, are not controlled", kind)
					continue
				}
				for _, m := range []string{"Stop", "Reset"} {
					obj, index, _ := types.LookupFieldOrMethod(named, true, r.pkg, m)
					if fn, ok := obj.(*types.Func); !ok || len(index) != 2 || index[0] != i || fn.Pkg() == nil || fn.Pkg().Path() != "time" {
						continue // declared by the struct itself, or ambiguous, or from elsewhere
					}
					decls = append(decls, r.timerMethod(ts.Name.Name, f.Name(), kind, m, ptr, f.Pos()))
				}
			}
		}
	}
	if len(decls) > 0 {
		file.Decls = append(file.Decls, decls...)
		r.changed = true
	}
}

// timerMethod is func (x T) Stop() bool { return rt.TimerStop(site, x.Timer) }
// and the like; a struct embedding the timer by value gets a pointer
// receiver, as the promoted methods have.
func (r *rewriter) timerMethod(typeName, field, kind, method string, ptr bool, at token.Pos) ast.Decl {
	pos := r.end
	recv := r.prefix + "recv"
	var recvType ast.Expr = ident(typeName, pos)
	var timer ast.Expr = &ast.SelectorExpr{X: ident(recv, pos), Sel: ident(field, pos)}
	if !ptr {
		recvType = &ast.StarExpr{X: recvType}
		timer = &ast.UnaryExpr{Op: token.AND, X: timer}
	}
	args := []ast.Expr{r.site(at), timer}
	params := &ast.FieldList{}
	if method == "Reset" {
		d := r.prefix + "d"
		params.List = []*ast.Field{{Names: []*ast.Ident{ident(d, pos)},
			Type: &ast.SelectorExpr{X: ident(r.stdName("time"), pos), Sel: ident("Duration", pos)}}}
		args = append(args, ident(d, pos))
	}
	call := r.hook(pos, kind+method, args...)
	ft := &ast.FuncType{Params: params}
	var body ast.Stmt = &ast.ExprStmt{X: call}
	if kind == "Timer" {
		ft.Results = &ast.FieldList{List: []*ast.Field{{Type: ident("bool", pos)}}}
		body = &ast.ReturnStmt{Results: []ast.Expr{call}}
	}
	return &ast.FuncDecl{
		Recv: &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{ident(recv, pos)}, Type: recvType}}},
		Name: ident(method, pos),
		Type: ft,
		Body: &ast.BlockStmt{List: []ast.Stmt{body}},
	}
}
