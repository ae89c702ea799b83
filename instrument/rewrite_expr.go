package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// This file rewrites expressions: shared-memory reads become
// *rt.R(site, &x), map reads rt.MapR(site, m)[k], receives rt.Recv, and calls
// go through call() (rewrite_call.go).
//
// Three modes exist for an operand:
//   expr(e)  e is read: e itself and everything it reads are instrumented;
//   path(e)  e is only addressed (&e, a pointer-receiver call, a write target):
//            what e reads to find its address is instrumented, e is not;
//   lhs(e)   e is written: *rt.W(site, &e) (or rt.MapW for map elements).

// findShared marks the local variables that other goroutines may reach and
// that can change while they do:
//   - variables whose address is taken explicitly (&x, &x.f, &x[i] of an
//     array): the pointer may travel anywhere;
//   - variables used inside a func literal that does not declare them and
//     written after their declaration (x = v, x++, x.f = v, a pointer-method
//     call x.M(), a := that reuses x, and before Go 1.22 the loop's own
//     update of its variables). A captured variable that is never written
//     again cannot race; instrumenting its reads would only add noise.
func (r *rewriter) findShared(file *ast.File) {
	var lits []*ast.FuncLit
	var stack []ast.Node
	captured := map[*types.Var]bool{}
	written := map[*types.Var]bool{}
	write := func(e ast.Expr) {
		if v := r.addrRoot(e); v != nil {
			written[v] = true
		}
	}
	sharedLoopVars := versionBefore(r.goVersion, 22)
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil {
			if _, ok := stack[len(stack)-1].(*ast.FuncLit); ok {
				lits = lits[:len(lits)-1]
			}
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.FuncLit:
			lits = append(lits, n)
		case *ast.Ident:
			if len(lits) == 0 {
				break
			}
			v := r.localVar(n)
			if v == nil {
				break
			}
			if lit := lits[len(lits)-1]; v.Pos() < lit.Pos() || v.Pos() >= lit.End() {
				captured[v] = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && !r.derefedAtOnce(stack) {
				if v := r.addrRoot(n.X); v != nil {
					r.captured[v] = true
				}
			}
		case *ast.AssignStmt:
			for _, e := range n.Lhs {
				if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE {
					if v := r.localVar(id); v != nil {
						written[v] = true // redeclared by :=, i.e. assigned
					}
					continue
				}
				write(e)
			}
		case *ast.IncDecStmt:
			write(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN || sharedLoopVars {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE {
						if v, ok := r.info.Defs[id].(*types.Var); ok {
							written[v] = true
						}
					} else if e != nil {
						write(e)
					}
				}
			}
		case *ast.ForStmt:
			if init, ok := n.Init.(*ast.AssignStmt); ok && init.Tok == token.DEFINE && sharedLoopVars && n.Post != nil {
				for _, e := range init.Lhs {
					if v, ok := r.info.Defs[e.(*ast.Ident)].(*types.Var); ok {
						written[v] = true
					}
				}
			}
		case *ast.SelectorExpr:
			// x.M() or x.M with a pointer receiver on an addressable x
			// passes &x: the method may write x.
			if sel := r.info.Selections[n]; sel != nil && sel.Kind() == types.MethodVal {
				if fn, ok := sel.Obj().(*types.Func); ok {
					if recv := fn.Type().(*types.Signature).Recv(); recv != nil && isPointer(recv.Type()) && !isPointer(r.info.TypeOf(n.X)) {
						write(n.X)
					}
				}
			}
		}
		return true
	})
	for v := range captured {
		if written[v] {
			r.captured[v] = true
		}
	}
}

// derefedAtOnce reports whether the &x on top of stack (its ancestors
// below it) is only converted, then dereferenced for a field or a value
// ((*T)(unsafe.Pointer(&x)).f, *(*T)(unsafe.Pointer(&x))): the pointer
// goes nowhere, so x stays the function's own. Hooking such an access made
// x escape to the heap, an allocation go test does not see
// (go.opentelemetry.io/otel/sdk/metric's allocation-free attribute reads).
func (r *rewriter) derefedAtOnce(stack []ast.Node) bool {
	converted := false
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.ParenExpr:
			continue
		case *ast.CallExpr:
			if tv, ok := r.info.Types[n.Fun]; ok && tv.IsType() && len(n.Args) == 1 {
				converted = true
				continue // a conversion of the pointer
			}
		case *ast.StarExpr:
			return converted && !r.addressedAbove(stack[:i])
		case *ast.SelectorExpr:
			sel := r.info.Selections[n]
			return converted && sel != nil && sel.Kind() == types.FieldVal && !r.addressedAbove(stack[:i])
		}
		return false
	}
	return false
}

// addressedAbove reports whether the value read at the node above stack
// (its ancestors) has its address taken after all: through more fields
// and array elements, an & (&p.f), a slice of an array (p.a[:]) or a
// pointer-method call (p.f.M()) would let the memory go elsewhere.
func (r *rewriter) addressedAbove(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.ParenExpr:
			continue
		case *ast.SelectorExpr:
			sel := r.info.Selections[n]
			if sel == nil {
				return false
			}
			if sel.Kind() == types.MethodVal {
				return true // the method may take its receiver's address
			}
			if sel.Indirect() {
				return false // a pointer read out of it: its own memory is not addressed
			}
			continue
		case *ast.IndexExpr:
			if _, ok := under(r.info.TypeOf(n.X)).(*types.Array); ok {
				continue
			}
			return false
		case *ast.UnaryExpr:
			return n.Op == token.AND
		case *ast.SliceExpr:
			return true
		}
		return false
	}
	return false
}

// localAddr returns the local variable x when p is &x, possibly converted
// ((*T)(unsafe.Pointer(&x))).
func (r *rewriter) localAddr(p ast.Expr) *types.Var {
	switch e := ast.Unparen(p).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return r.addrRoot(e.X)
		}
	case *ast.CallExpr:
		if tv, ok := r.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return r.localAddr(e.Args[0])
		}
	}
	return nil
}

// addrRoot returns the local variable whose storage &e exposes, if any.
func (r *rewriter) addrRoot(e ast.Expr) *types.Var {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return r.localVar(e)
	case *ast.SelectorExpr:
		if sel := r.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal && !sel.Indirect() {
			return r.addrRoot(e.X)
		}
	case *ast.IndexExpr:
		if _, ok := under(r.info.TypeOf(e.X)).(*types.Array); ok {
			return r.addrRoot(e.X)
		}
	}
	return nil
}

// localVar returns the function-local variable id refers to, if any.
func (r *rewriter) localVar(id *ast.Ident) *types.Var {
	v, ok := r.info.Uses[id].(*types.Var)
	if !ok || v.IsField() || isPkgLevel(v) {
		return nil
	}
	return v
}

func isPkgLevel(v *types.Var) bool {
	return v.Pkg() != nil && v.Pkg().Scope().Lookup(v.Name()) == v
}

func under(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

func isPointer(t types.Type) bool {
	_, ok := under(t).(*types.Pointer)
	return ok
}

func deref(t types.Type) types.Type {
	if p, ok := under(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// namedIn returns the package path and name of t's defined type.
func namedIn(t types.Type) (pkg, name string) {
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Path(), n.Obj().Name()
	}
	return "", ""
}

// syncish reports values of sync and sync/atomic types: they are handled by
// their methods (rules for sync and atomics), never as plain memory.
func syncish(t types.Type) bool {
	p, _ := namedIn(t)
	return p == "sync" || p == "sync/atomic"
}

// sharedVar reports whether accesses to the variable id denotes are
// instrumented: package-level variables and shared locals.
func (r *rewriter) sharedVar(id *ast.Ident) bool {
	v, ok := r.info.Uses[id].(*types.Var)
	if !ok || v.IsField() || syncish(v.Type()) {
		return false
	}
	return isPkgLevel(v) || r.captured[v]
}

// isLoc reports whether e denotes instrumented memory.
func (r *rewriter) isLoc(e ast.Expr) bool {
	e = ast.Unparen(e)
	if tv, ok := r.info.Types[e]; ok && (tv.IsType() || tv.Value != nil || syncish(tv.Type)) {
		return false
	}
	switch e := e.(type) {
	case *ast.Ident:
		return r.sharedVar(e)
	case *ast.SelectorExpr:
		if r.qualified(e) {
			return r.sharedVar(e.Sel)
		}
		sel := r.info.Selections[e]
		if sel == nil || sel.Kind() != types.FieldVal {
			return false
		}
		if sel.Indirect() {
			if v := r.localAddr(e.X); v != nil {
				return r.captured[v] // through a converted &x: x's own memory
			}
			return true
		}
		return r.isLoc(e.X)
	case *ast.IndexExpr:
		switch t := under(r.info.TypeOf(e.X)).(type) {
		case *types.Slice:
			return true
		case *types.Pointer:
			_, isArray := under(t.Elem()).(*types.Array)
			return isArray
		case *types.Array:
			return r.isLoc(e.X)
		}
	case *ast.StarExpr:
		if v := r.localAddr(e.X); v != nil {
			return r.captured[v]
		}
		return true
	}
	return false
}

// qualified reports whether e is pkg.Name.
func (r *rewriter) qualified(e *ast.SelectorExpr) bool {
	if id, ok := e.X.(*ast.Ident); ok {
		_, isPkg := r.info.Uses[id].(*types.PkgName)
		return isPkg
	}
	return false
}

// paren wraps e where it becomes the operand of a selector, index, slice,
// call or type assertion and would otherwise bind wrongly (*p.f).
func paren(e ast.Expr) ast.Expr {
	switch e.(type) {
	case *ast.StarExpr, *ast.UnaryExpr, *ast.BinaryExpr:
		return &ast.ParenExpr{Lparen: e.Pos(), X: e, Rparen: e.Pos()}
	}
	return e
}

// read is *rt.R(site, &e) for a location e.
func (r *rewriter) read(e ast.Expr) ast.Expr {
	pos := e.Pos()
	return &ast.StarExpr{Star: pos, X: r.hook(pos, "R", r.site(pos), r.addrOf(e))}
}

// addrOf is &e with e in path mode (*p gives back p).
func (r *rewriter) addrOf(e ast.Expr) ast.Expr {
	e = ast.Unparen(e)
	if s, ok := e.(*ast.StarExpr); ok {
		return r.expr(s.X)
	}
	p := r.path(e)
	if s, ok := p.(*ast.StarExpr); ok {
		return s.X
	}
	return &ast.UnaryExpr{OpPos: e.Pos(), Op: token.AND, X: p}
}

// path rewrites e, an addressable operand that is not itself accessed.
func (r *rewriter) path(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.ParenExpr:
		x.X = r.path(x.X)
		return x
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		if r.qualified(x) {
			return x
		}
		if sel := r.info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal {
			if isPointer(r.info.TypeOf(x.X)) {
				x.X = paren(r.expr(x.X))
			} else {
				x.X = paren(r.path(x.X))
			}
			return x
		}
	case *ast.IndexExpr:
		if _, ok := under(r.info.TypeOf(x.X)).(*types.Array); ok {
			x.X = paren(r.path(x.X))
			x.Index = r.expr(x.Index)
			return x
		}
		if m, ok := under(r.info.TypeOf(x.X)).(*types.Map); ok && m != nil {
			return r.expr(x) // not addressable: only reached by value-receiver calls
		}
		x.X = paren(r.expr(x.X))
		x.Index = r.expr(x.Index)
		return x
	case *ast.StarExpr:
		x.X = r.expr(x.X)
		return x
	}
	return r.expr(e)
}

// lhs rewrites the target of an assignment.
func (r *rewriter) lhs(e ast.Expr) ast.Expr {
	if id, ok := e.(*ast.Ident); ok && id.Name == "_" {
		return e
	}
	if ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok {
		if _, isMap := under(r.info.TypeOf(ix.X)).(*types.Map); isMap {
			ix.X = r.hook(ix.X.Pos(), "MapW", r.site(ix.X.Pos()), r.expr(ix.X))
			ix.Index = r.expr(ix.Index)
			return e
		}
	}
	if r.isLoc(e) {
		pos := e.Pos()
		return &ast.StarExpr{Star: pos, X: r.hook(pos, "W", r.site(pos), r.addrOf(e))}
	}
	return r.path(e)
}

// readModifyWrite rewrites the operand of x++ or x op= v: a read key point
// then a write key point on one address evaluated once:
// *rt.W(site, rt.R(site, &x)) += v.
func (r *rewriter) readModifyWrite(e ast.Expr) ast.Expr {
	pos := e.Pos()
	if ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok {
		if _, isMap := under(r.info.TypeOf(ix.X)).(*types.Map); isMap {
			m := r.hook(pos, "MapR", r.site(pos), r.expr(ix.X))
			ix.X = r.hook(pos, "MapW", r.site(pos), m)
			ix.Index = r.expr(ix.Index)
			return e
		}
	}
	if r.isLoc(e) {
		p := r.hook(pos, "R", r.site(pos), r.addrOf(e))
		return &ast.StarExpr{Star: pos, X: r.hook(pos, "W", r.site(pos), p)}
	}
	return r.path(e)
}

// expr rewrites e in a read context and returns its replacement.
func (r *rewriter) expr(e ast.Expr) ast.Expr {
	if e == nil {
		return nil
	}
	if tv, ok := r.info.Types[e]; ok && (tv.Value != nil || tv.IsType() || tv.IsNil() || tv.IsBuiltin()) {
		return e
	}
	switch x := e.(type) {
	case *ast.Ident:
		if r.sharedVar(x) {
			return r.read(x)
		}
	case *ast.ParenExpr:
		x.X = r.expr(x.X)
	case *ast.SelectorExpr:
		return r.selector(x)
	case *ast.IndexExpr:
		if isFuncInstance(r.info, x.X) {
			return x
		}
		if _, isMap := under(r.info.TypeOf(x.X)).(*types.Map); isMap {
			pos := x.X.Pos()
			x.X = r.hook(pos, "MapR", r.site(pos), r.expr(x.X))
			x.Index = r.expr(x.Index)
			return x
		}
		if r.isLoc(x) {
			return r.read(x)
		}
		x.X = paren(r.expr(x.X))
		x.Index = r.expr(x.Index)
	case *ast.IndexListExpr:
		// a generic instantiation: nothing to read
	case *ast.SliceExpr:
		if _, isArray := under(r.info.TypeOf(x.X)).(*types.Array); isArray {
			x.X = paren(r.path(x.X))
		} else {
			x.X = paren(r.expr(x.X))
		}
		x.Low, x.High, x.Max = r.expr(x.Low), r.expr(x.High), r.expr(x.Max)
	case *ast.StarExpr:
		if r.isLoc(x) {
			return r.read(x)
		}
		x.X = r.expr(x.X)
	case *ast.UnaryExpr:
		switch x.Op {
		case token.AND:
			if _, isLit := ast.Unparen(x.X).(*ast.CompositeLit); isLit {
				x.X = r.expr(x.X)
				if t := r.info.TypeOf(x.X); t != nil && zeroSized(t) {
					return r.hook(x.OpPos, "OnHeap", x) // rt.OnHeap: one address for them all
				}
				return x
			}
			return r.addrOf(x.X)
		case token.ARROW:
			if chanCore(r.info.TypeOf(x.X)) == nil {
				r.note(x.Pos(), "receive on a value of type parameter type with no core type is not controlled")
				x.X = r.expr(x.X)
				return x
			}
			return r.hook(x.OpPos, "Recv", r.site(x.OpPos), r.expr(x.X))
		}
		x.X = r.expr(x.X)
	case *ast.BinaryExpr:
		x.X = r.expr(x.X)
		x.Y = r.expr(x.Y)
	case *ast.CallExpr:
		return r.call(x)
	case *ast.CompositeLit:
		r.compositeLit(x)
	case *ast.FuncLit:
		r.block(x.Body)
	case *ast.TypeAssertExpr:
		x.X = paren(r.expr(x.X))
	case *ast.KeyValueExpr:
		x.Key = r.expr(x.Key)
		x.Value = r.expr(x.Value)
	}
	return e
}

func (r *rewriter) compositeLit(x *ast.CompositeLit) {
	_, isStruct := under(deref(r.info.TypeOf(x))).(*types.Struct)
	for i, el := range x.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			x.Elts[i] = r.expr(el)
			continue
		}
		if !isStruct { // struct keys are field names
			kv.Key = r.expr(kv.Key)
		}
		kv.Value = r.expr(kv.Value)
	}
}

// isFuncInstance reports whether e (the X of an index expression) is a
// generic function, i.e. e[...] instantiates it.
func isFuncInstance(info *types.Info, e ast.Expr) bool {
	_, ok := under(info.TypeOf(e)).(*types.Signature)
	return ok
}

// selector rewrites x.f read as a value.
func (r *rewriter) selector(x *ast.SelectorExpr) ast.Expr {
	if r.qualified(x) {
		if v, ok := r.info.Uses[x.Sel].(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" && v.Name() == "Reader" {
			// The run's source inside a controlled run (rt/cryptorand.go).
			return r.hook(x.Pos(), "CryptoReader", x)
		}
		if r.sharedVar(x.Sel) {
			return r.read(x)
		}
		if fn, ok := r.info.Uses[x.Sel].(*types.Func); ok && fn.Pkg() != nil {
			return r.funcValue(x, fn)
		}
		return x
	}
	if r.explicit[x] {
		x.X = paren(r.expr(x.X))
		return x
	}
	sel := r.info.Selections[x]
	if sel == nil {
		return x
	}
	switch sel.Kind() {
	case types.FieldVal:
		if r.isLoc(x) {
			return r.read(x)
		}
		x.X = paren(r.expr(x.X))
	case types.MethodVal:
		if f := r.viaEmbeddedIface(x, sel); f != nil && ifaceValueHook(sel.Obj().(*types.Func), r.info.TypeOf(f.X)) != "" {
			return r.methodValue(f, sel) // s.in.Unlock as a value, s.in embedding sync.Locker
		}
		return r.methodValue(x, sel)
	case types.MethodExpr:
		return r.methodExpr(x, sel)
	}
	return x
}

// receiver rewrites the receiver operand of a method call or method value:
// a pointer-receiver method on an addressable value only takes its address.
func (r *rewriter) receiver(x ast.Expr, sel *types.Selection) ast.Expr {
	fn, _ := sel.Obj().(*types.Func)
	ptrRecv := false
	if fn != nil {
		if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
			ptrRecv = isPointer(recv.Type())
		}
	}
	if ptrRecv && !isPointer(r.info.TypeOf(x)) {
		return paren(r.path(x))
	}
	return paren(r.expr(x))
}

// zeroSized reports whether values of t take no memory: struct{}, [0]T, and
// structs and arrays of such (a type parameter is not).
func zeroSized(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !zeroSized(u.Field(i).Type()) {
				return false
			}
		}
		return true
	case *types.Array:
		return u.Len() == 0 || zeroSized(u.Elem())
	}
	return false
}
