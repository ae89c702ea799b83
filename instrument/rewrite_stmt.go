package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// This file rewrites statements. A statement that needs temporaries becomes
// a block, so that the temporaries' scope ends with it and the statement
// stays one statement wherever it was (labels, case bodies, goto).

func (r *rewriter) block(b *ast.BlockStmt) {
	if b != nil {
		b.List = r.stmts(b.List)
	}
}

// spliced is a rewrite into several statements that must stay in the
// enclosing list (they declare variables used after them).
type spliced struct{ *ast.BlockStmt }

func (r *rewriter) stmts(list []ast.Stmt) []ast.Stmt {
	out := list[:0:0]
	for _, s := range list {
		n := r.stmt(s)
		if sp, ok := n.(spliced); ok {
			out = append(out, sp.List...)
		} else {
			out = append(out, n)
		}
	}
	return out
}

func (r *rewriter) stmt(s ast.Stmt) ast.Stmt {
	switch s := s.(type) {
	case nil:
		return nil
	case *ast.ExprStmt:
		if out := r.readMemStats(s); out != nil {
			return out
		}
		s.X = r.expr(s.X)
	case *ast.SendStmt:
		ch := chanCore(r.info.TypeOf(s.Chan))
		if ch == nil {
			r.note(s.Pos(), "send on a value of type parameter type with no core type is not controlled")
			s.Chan, s.Value = r.expr(s.Chan), r.expr(s.Value)
			return s
		}
		if tv := r.info.Types[s.Value]; tv.Type == nil || !types.Identical(ch.Elem(), tv.Type) {
			// The value is only assignable to the element type (an
			// interface, a named func or channel type, an untyped
			// constant): rt.SendOn(ch) takes the element type from the
			// channel alone, and the call converts the value as the send
			// statement would.
			on := r.hook(s.Arrow, "SendOn", r.expr(s.Chan))
			return &ast.ExprStmt{X: &ast.CallExpr{Fun: on, Lparen: s.Arrow, Args: []ast.Expr{r.site(s.Arrow), r.expr(s.Value)}, Rparen: s.Arrow}}
		}
		return &ast.ExprStmt{X: r.hook(s.Arrow, "Send", r.site(s.Arrow), r.expr(s.Chan), r.expr(s.Value))}
	case *ast.IncDecStmt:
		op := token.ADD
		if s.Tok == token.DEC {
			op = token.SUB
		}
		if out := r.splitUpdate(s.X, op, &ast.BasicLit{ValuePos: s.TokPos, Kind: token.INT, Value: "1"}); out != nil {
			return out
		}
		s.X = r.readModifyWrite(s.X)
	case *ast.AssignStmt:
		if s.Tok >= token.ADD_ASSIGN && s.Tok <= token.AND_NOT_ASSIGN && len(s.Lhs) == 1 {
			// x op= y: the op is at the same place in the op= list.
			if out := r.splitUpdate(s.Lhs[0], s.Tok-token.ADD_ASSIGN+token.ADD, s.Rhs[0]); out != nil {
				return out
			}
		}
		if r.hoistable(s) {
			return r.hoist(s)
		}
		if out := r.redefine(s); out != nil {
			return out
		}
		r.assign(s)
	case *ast.GoStmt:
		return r.goStmt(s)
	case *ast.DeferStmt:
		return r.deferStmt(s)
	case *ast.ReturnStmt:
		for i, e := range s.Results {
			s.Results[i] = r.expr(e)
		}
	case *ast.BlockStmt:
		r.block(s)
	case *ast.IfStmt:
		s.Init = r.simpleStmt(s.Init)
		s.Cond = r.expr(s.Cond)
		r.block(s.Body)
		s.Else = r.stmt(s.Else)
	case *ast.ForStmt:
		mark := r.iterationMark(s)
		s.Init = r.simpleStmt(s.Init)
		s.Cond = r.expr(s.Cond)
		s.Post = r.simpleStmt(s.Post)
		r.block(s.Body)
		if mark != nil {
			s.Body.List = append([]ast.Stmt{mark}, s.Body.List...)
		}
	case *ast.RangeStmt:
		return r.rangeStmt(s, nil)
	case *ast.SwitchStmt:
		s.Init = r.simpleStmt(s.Init)
		s.Tag = r.expr(s.Tag)
		for _, c := range s.Body.List {
			cc := c.(*ast.CaseClause)
			for i, e := range cc.List {
				cc.List[i] = r.expr(e)
			}
			cc.Body = r.stmts(cc.Body)
		}
	case *ast.TypeSwitchStmt:
		s.Init = r.simpleStmt(s.Init)
		s.Assign = r.simpleStmt(s.Assign)
		for _, c := range s.Body.List {
			cc := c.(*ast.CaseClause)
			cc.Body = r.stmts(cc.Body)
		}
	case *ast.SelectStmt:
		return r.selectStmt(s, nil)
	case *ast.LabeledStmt:
		switch inner := s.Stmt.(type) {
		case *ast.SelectStmt:
			return r.selectStmt(inner, s)
		case *ast.RangeStmt:
			return r.rangeStmt(inner, s)
		}
		inner := r.stmt(s.Stmt)
		if sp, ok := inner.(spliced); ok {
			s.Stmt = sp.List[0]
			sp.List[0] = s
			return sp
		}
		s.Stmt = inner
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, spec := range g.Specs {
				r.valueSpec(spec.(*ast.ValueSpec))
			}
		}
	}
	return s
}

// splitUpdate rewrites x++, x-- and x op= y on instrumented memory into
//
//	{ p := &x; v := *rt.R(site, p); *rt.W(site, p) = v op y }
//
// so that the read happens at its key point and the write at its own, as on
// a real machine: another goroutine may write x in between (the lost update
// of two unsynchronised increments). y is evaluated after both key points,
// as it would be after the hooks of *W(R(&x)) op= y. Only where a block may
// stand (not in if/for/switch headers); nil when it does not apply.
func (r *rewriter) splitUpdate(x ast.Expr, op token.Token, y ast.Expr) ast.Stmt {
	if r.simple > 0 || !r.isLoc(x) {
		return nil
	}
	if ix, ok := ast.Unparen(x).(*ast.IndexExpr); ok {
		if _, isMap := under(r.info.TypeOf(ix.X)).(*types.Map); isMap {
			return nil
		}
	}
	pos := x.Pos()
	p, v := r.tmp(pos), r.tmp(pos)
	if y != nil {
		y = r.expr(y)
	}
	read := &ast.StarExpr{Star: pos, X: r.hook(pos, "R", r.site(pos), p)}
	write := &ast.StarExpr{Star: pos, X: r.hook(pos, "W", r.site(pos), p)}
	return block(pos,
		define(pos, []ast.Expr{p}, r.addrOf(x)),
		define(pos, []ast.Expr{v}, read),
		&ast.AssignStmt{Lhs: []ast.Expr{write}, TokPos: pos, Tok: token.ASSIGN,
			Rhs: []ast.Expr{&ast.BinaryExpr{X: v, OpPos: pos, Op: op, Y: paren(y)}}})
}

// simpleStmt rewrites a statement in a position that takes one simple
// statement (if/for/switch headers): nothing may become a block there.
func (r *rewriter) simpleStmt(s ast.Stmt) ast.Stmt {
	r.simple++
	defer func() { r.simple-- }()
	return r.stmt(s)
}

// recvOf returns the receive expression e is, if any.
func recvOf(e ast.Expr) *ast.UnaryExpr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u
	}
	return nil
}

// recv2 rewrites v, ok := <-ch into v, ok := rt.Recv2(site, ch).
func (r *rewriter) recv2(e ast.Expr) ast.Expr {
	u := recvOf(e)
	if u == nil {
		return r.expr(e)
	}
	if chanCore(r.info.TypeOf(u.X)) == nil {
		r.note(u.Pos(), "receive on a value of type parameter type with no core type is not controlled")
		return r.expr(e)
	}
	return r.hook(u.OpPos, "Recv2", r.site(u.OpPos), r.expr(u.X))
}

func (r *rewriter) valueSpec(s *ast.ValueSpec) {
	if len(s.Names) == 2 && len(s.Values) == 1 {
		s.Values[0] = r.recv2(s.Values[0])
		return
	}
	for i, v := range s.Values {
		s.Values[i] = r.expr(v)
	}
}

// hoistable reports an assignment to instrumented memory whose right side
// is calls or receives, in a statement list: x = <-ch becomes
// { t := rt.Recv(site, ch); *rt.W(site, &x) = t }, so that the write key
// point follows the operations the value waited for, as the write does.
// Only call and receive results are hoisted: their types do not depend on the
// assignment (an untyped 1<<n would). Left sides with calls are left alone
// (their evaluation must stay first).
func (r *rewriter) hoistable(s *ast.AssignStmt) bool {
	if r.simple > 0 || s.Tok != token.ASSIGN {
		return false
	}
	target := false
	for _, e := range s.Lhs {
		if hasCall(r.info, e) {
			return false
		}
		if ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok {
			if _, isMap := under(r.info.TypeOf(ix.X)).(*types.Map); isMap {
				target = true
			}
		}
		if r.isLoc(e) {
			target = true
		}
	}
	if !target {
		return false
	}
	for _, e := range s.Rhs {
		switch e := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			if tv := r.info.Types[e.Fun]; tv.IsType() || tv.IsBuiltin() {
				return false
			}
		case *ast.UnaryExpr:
			if e.Op != token.ARROW {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// hasCall reports calls (other than conversions) and receives in e.
func hasCall(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if !info.Types[n.Fun].IsType() {
				found = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				found = true
			}
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

func (r *rewriter) hoist(s *ast.AssignStmt) ast.Stmt {
	pos := s.Pos()
	var rhs []ast.Expr
	if len(s.Lhs) == 2 && len(s.Rhs) == 1 {
		rhs = []ast.Expr{r.recv2(s.Rhs[0])}
	} else {
		for _, e := range s.Rhs {
			rhs = append(rhs, r.expr(e))
		}
	}
	var ts, uses []ast.Expr
	for range s.Lhs {
		t := r.tmp(pos)
		ts, uses = append(ts, t), append(uses, ident(t.Name, s.TokPos))
	}
	for i, e := range s.Lhs {
		s.Lhs[i] = r.lhs(e)
	}
	s.Rhs = uses
	return block(pos, define(pos, ts, rhs...), s)
}

// redefine rewrites a := that reuses shared variables (x, err := f() with
// err shared): the reused ones receive temporaries, then are written with
// key points, in the same statement list:
// x, t := f(); *rt.W(site, &err) = t.
func (r *rewriter) redefine(s *ast.AssignStmt) ast.Stmt {
	if s.Tok != token.DEFINE || r.simple > 0 {
		return nil
	}
	var reused []int
	for i, e := range s.Lhs {
		id, ok := e.(*ast.Ident)
		if ok && id.Name != "_" && r.info.Defs[id] == nil && r.sharedVar(id) {
			reused = append(reused, i)
		}
	}
	if len(reused) == 0 {
		return nil
	}
	if len(s.Rhs) == len(s.Lhs) {
		for _, i := range reused {
			if b, ok := r.info.TypeOf(s.Rhs[i]).(*types.Basic); !ok && r.info.TypeOf(s.Rhs[i]) == nil || ok && b.Info()&types.IsUntyped != 0 {
				return nil // a temporary would get another type
			}
		}
	}
	r.assign(s)
	w := &ast.AssignStmt{TokPos: s.TokPos, Tok: token.ASSIGN}
	for _, i := range reused {
		id := s.Lhs[i].(*ast.Ident)
		t := r.tmp(id.Pos())
		s.Lhs[i] = t
		w.Lhs = append(w.Lhs, r.lhs(id))
		w.Rhs = append(w.Rhs, ident(t.Name, id.Pos()))
	}
	return spliced{block(s.Pos(), s, w)}
}

func (r *rewriter) assign(s *ast.AssignStmt) {
	switch s.Tok {
	case token.DEFINE:
		// The left side declares (or redeclares) locals: not accesses.
	case token.ASSIGN:
		for i, e := range s.Lhs {
			s.Lhs[i] = r.lhs(e)
		}
	default: // op=
		s.Lhs[0] = r.readModifyWrite(s.Lhs[0])
	}
	if len(s.Lhs) == 2 && len(s.Rhs) == 1 {
		s.Rhs[0] = r.recv2(s.Rhs[0])
		return
	}
	for i, e := range s.Rhs {
		s.Rhs[i] = r.expr(e)
	}
}

// goStmt rewrites go f(x) into { f0, x0 := f, x; rt.Go(site, func() { f0(x0) }) }:
// the function value and the arguments are evaluated by the parent, as Go does.
func (r *rewriter) goStmt(s *ast.GoStmt) ast.Stmt {
	pos := s.Go
	tuple := r.tupleArg(s.Call)
	c := r.unIO(r.unCAS(r.call(s.Call)))
	if lit, ok := c.Fun.(*ast.FuncLit); ok && len(c.Args) == 0 && lit.Type.Params.NumFields() == 0 && lit.Type.Results.NumFields() == 0 {
		run := r.hook(pos, "Go", r.site(pos), lit)
		run.Rparen = c.Rparen
		return &ast.ExprStmt{X: run}
	}
	pre := r.bind(c, pos, tuple)
	call := r.hook(pos, "Go", r.site(pos), r.thunk(c, pos))
	call.Rparen = c.Rparen
	run := &ast.ExprStmt{X: call}
	if len(pre) == 0 {
		return run
	}
	return block(pos, append(pre, run)...)
}

// deferStmt rewrites defer f(x). Most hooked calls stay one call whose
// operands Go evaluates at the defer statement, as before. Calls wrapped by a
// key point (rt.Atomic, rt.SyncMap) would run that key point at the defer
// statement instead of at the deferred call: they become
// { x0 := &n; defer func() { atomic.AddInt32(rt.Atomic(site, x0), -1) }() }.
func (r *rewriter) deferStmt(s *ast.DeferStmt) ast.Stmt {
	pos := s.Defer
	tuple := r.tupleArg(s.Call)
	c := r.unIO(r.unCAS(r.call(s.Call)))
	if !r.wrapped(c) {
		s.Call = c
		return s
	}
	pre := r.bind(c, pos, tuple)
	s.Call = &ast.CallExpr{Fun: r.thunk(c, pos), Lparen: c.Rparen, Rparen: c.Rparen}
	if len(pre) == 0 {
		return s
	}
	return block(pos, append(pre, s)...)
}

// unCAS drops rt.CASDone around a CompareAndSwap started by go or defer:
// its result goes nowhere, and CASDone's operand would be evaluated at the
// statement, not in the call.
func (r *rewriter) unCAS(c *ast.CallExpr) *ast.CallExpr {
	if h, ok := r.isHook(c, "CASDone"); ok {
		return h.Args[0].(*ast.CallExpr)
	}
	return c
}

func (r *rewriter) thunk(c *ast.CallExpr, pos token.Pos) *ast.FuncLit {
	lit := &ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}}, Body: block(pos, &ast.ExprStmt{X: c})}
	lit.Body.Rbrace = c.Rparen
	return lit
}

// isHook reports whether e is a call of one of the named rt hooks.
func (r *rewriter) isHook(e ast.Expr, names ...string) (*ast.CallExpr, bool) {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	s, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	if x, ok := s.X.(*ast.Ident); !ok || x.Name != r.prefix || r.info.Uses[x] != nil {
		return nil, false
	}
	for _, n := range names {
		if s.Sel.Name == n {
			return c, true
		}
	}
	return nil, false
}

// wrapped reports calls of the forms atomic.F(rt.Atomic(site, p), ...) and
// rt.Atomic(site, p).M(...) / rt.SyncMap(site, m).M(...).
func (r *rewriter) wrapped(c *ast.CallExpr) bool {
	if s, ok := c.Fun.(*ast.SelectorExpr); ok {
		if _, ok := r.isHook(s.X, wrapHooks...); ok {
			return true
		}
	}
	if len(c.Args) > 0 {
		if _, ok := r.isHook(c.Args[0], atomicHooks...); ok {
			return true
		}
	}
	return false
}

// bind evaluates the function value and the operands of c now, into
// temporaries that c then uses; for wrapped calls the operand of the wrapping
// hook is bound, not the hook call (its key point belongs to the call).
func (r *rewriter) bind(c *ast.CallExpr, pos token.Pos, tuple int) []ast.Stmt {
	var lhs, rhs []ast.Expr
	var pre []ast.Stmt
	temp := func(e ast.Expr) ast.Expr {
		if !r.needsTemp(e) {
			return e
		}
		t := r.tmp(pos)
		lhs, rhs = append(lhs, t), append(rhs, e)
		return ident(t.Name, e.Pos())
	}
	if s, ok := c.Fun.(*ast.SelectorExpr); ok {
		if h, ok := r.isHook(s.X, wrapHooks...); ok {
			h.Args[1] = temp(h.Args[1])
		} else {
			c.Fun = temp(c.Fun)
		}
	} else {
		c.Fun = temp(c.Fun)
	}
	if tuple > 0 {
		if len(lhs) > 0 {
			pre = append(pre, define(pos, lhs, rhs...))
			lhs, rhs = nil, nil
		}
		var ts, uses []ast.Expr
		for i := 0; i < tuple; i++ {
			t := r.tmp(pos)
			ts, uses = append(ts, t), append(uses, ident(t.Name, c.Args[0].Pos()))
		}
		pre = append(pre, define(pos, ts, c.Args[0]))
		c.Args = uses
		return pre
	}
	for i, a := range c.Args {
		if h, ok := r.isHook(a, atomicHooks...); ok && i == 0 {
			h.Args[1] = temp(h.Args[1])
			continue
		}
		c.Args[i] = temp(a)
	}
	if len(lhs) > 0 {
		pre = append(pre, define(pos, lhs, rhs...))
	}
	return pre
}

// needsTemp reports whether evaluating e later, in the child goroutine,
// could give another value than evaluating it now.
func (r *rewriter) needsTemp(e ast.Expr) bool {
	if tv, ok := r.info.Types[e]; ok && (tv.Value != nil || tv.IsNil() || tv.IsType() || tv.IsBuiltin()) {
		return false
	}
	switch e := e.(type) {
	case *ast.BasicLit, *ast.FuncLit:
		return false
	case *ast.ParenExpr:
		return r.needsTemp(e.X)
	case *ast.Ident:
		switch r.info.Uses[e].(type) {
		case *types.Func, *types.Builtin, *types.Const, *types.Nil, *types.TypeName:
			return false
		}
		return true
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok && x.Name == r.prefix && r.info.Uses[x] == nil {
			return false // rt.Hook
		}
		if r.qualified(e) {
			_, isVar := r.info.Uses[e.Sel].(*types.Var)
			return isVar
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			if x, ok := e.X.(*ast.Ident); ok {
				_, isVar := r.info.Uses[x].(*types.Var)
				return !isVar
			}
		}
	case *ast.IndexExpr:
		return !isFuncInstance(r.info, e.X)
	case *ast.IndexListExpr:
		return false
	}
	return true
}

// rangeStmt rewrites range over a channel into receives; other ranges only
// get their operands rewritten. lab is the statement's label, if any.
func (r *rewriter) rangeStmt(s *ast.RangeStmt, lab *ast.LabeledStmt) ast.Stmt {
	mark := r.iterationMark(s)
	out := r.rangeLoop(s, lab)
	if mark != nil { // every rewrite of the loop keeps s.Body as its body
		s.Body.List = append([]ast.Stmt{mark}, s.Body.List...)
	}
	return out
}

func (r *rewriter) rangeLoop(s *ast.RangeStmt, lab *ast.LabeledStmt) ast.Stmt {
	if mapCore(r.info.TypeOf(s.X)) != nil {
		return r.mapRange(s, lab)
	}
	if chanCore(r.info.TypeOf(s.X)) == nil {
		if chanParam(r.info.TypeOf(s.X)) {
			r.note(s.Pos(), "range over a value of type parameter type with no core type is not controlled")
		}
		if s.Tok == token.ASSIGN && r.rangeWrites(s) {
			// for k = range x with k shared: for t := range x { *rt.W(site, &k) = t; ... }
			pos := s.For
			w := &ast.AssignStmt{TokPos: pos, Tok: token.ASSIGN}
			for _, e := range []*ast.Expr{&s.Key, &s.Value} {
				if isBlank(*e) {
					continue
				}
				t := r.tmp(pos)
				w.Lhs = append(w.Lhs, r.lhs(*e))
				w.Rhs = append(w.Rhs, ident(t.Name, pos))
				*e = t
			}
			s.Tok = token.DEFINE
			s.X = r.expr(s.X)
			r.block(s.Body)
			s.Body.List = append([]ast.Stmt{w}, s.Body.List...)
		} else {
			writes := r.loopVarWrites(s)
			s.X = r.expr(s.X)
			if s.Tok == token.ASSIGN {
				s.Key, s.Value = r.path(s.Key), r.path(s.Value)
			}
			r.block(s.Body)
			s.Body.List = append(writes, s.Body.List...)
		}
		if lab != nil {
			lab.Stmt = s
			return lab
		}
		return s
	}
	pos := s.For
	c, ok := r.tmp(pos), r.tmp(pos)
	ch := r.expr(s.X)
	writes := r.loopVarWrites(s)
	r.block(s.Body)
	s.Body.List = append(writes, s.Body.List...)
	recv := func() ast.Expr { return r.hook(pos, "Recv2", r.site(pos), ident(c.Name, pos)) }
	var loop ast.Stmt
	if s.Tok == token.ASSIGN && !isBlank(s.Key) {
		// for v = range ch: receive into a temporary, then assign v (maybe
		// shared memory) only when a value arrived.
		v := r.tmp(pos)
		head := []ast.Stmt{
			define(pos, []ast.Expr{v, ok}, recv()),
			&ast.IfStmt{If: pos, Cond: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: ident(ok.Name, pos)},
				Body: block(pos, &ast.BranchStmt{TokPos: pos, Tok: token.BREAK})},
			&ast.AssignStmt{Lhs: []ast.Expr{r.lhs(s.Key)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(v.Name, pos)}},
		}
		s.Body.List = append(head, s.Body.List...)
		loop = &ast.ForStmt{For: pos, Body: s.Body}
	} else {
		// for v := range ch: a three-clause loop keeps the module's loop
		// variable semantics (shared before Go 1.22, per iteration after).
		var key ast.Expr = ident("_", pos)
		if s.Key != nil && s.Tok == token.DEFINE {
			key = s.Key
		}
		name := key.(*ast.Ident).Name
		var post ast.Stmt = &ast.AssignStmt{Lhs: []ast.Expr{ident(name, pos), ident(ok.Name, pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{recv()}}
		if name != "_" && versionBefore(r.goVersion, 22) {
			// One variable for all iterations: the receive that sees the
			// channel closed must not zero it (closures may still read it):
			// func() { t, k := rt.Recv2(site, c); if k { v = t }; ok = k }()
			t, k := r.tmp(pos), r.tmp(pos)
			body := block(pos,
				define(pos, []ast.Expr{t, k}, recv()),
				&ast.IfStmt{If: pos, Cond: ident(k.Name, pos), Body: block(pos,
					&ast.AssignStmt{Lhs: []ast.Expr{ident(name, pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(t.Name, pos)}})},
				&ast.AssignStmt{Lhs: []ast.Expr{ident(ok.Name, pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(k.Name, pos)}})
			lit := &ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}}, Body: body}
			post = &ast.ExprStmt{X: &ast.CallExpr{Fun: lit, Lparen: pos, Rparen: pos}}
		}
		loop = &ast.ForStmt{For: pos,
			Init: define(pos, []ast.Expr{key, ok}, recv()),
			Cond: ident(ok.Name, pos),
			Post: post,
			Body: s.Body}
	}
	return r.labeledBlock(pos, pos, lab, loop, define(pos, []ast.Expr{c}, ch))
}

// loopVarWrites announces the writes of for k, v := range x before Go 1.22:
// one variable serves every iteration and the range statement assigns it
// each time, so goroutines that captured it race with that assignment (as
// -race sees). The announcement, rt.W(site, &k) at the top of the body,
// follows the real assignment with no key point between them.
func (r *rewriter) loopVarWrites(s *ast.RangeStmt) []ast.Stmt {
	if s.Tok != token.DEFINE || !versionBefore(r.goVersion, 22) {
		return nil
	}
	var out []ast.Stmt
	pos := s.For
	for _, e := range []ast.Expr{s.Key, s.Value} {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		v, ok := r.info.Defs[id].(*types.Var)
		if !ok || !r.captured[v] || syncish(v.Type()) {
			continue
		}
		addr := &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ident(id.Name, pos)}
		out = append(out, &ast.ExprStmt{X: r.hook(pos, "W", r.site(pos), addr)})
	}
	return out
}

// mapRange rewrites range over a map (or a type parameter whose core type
// is a map) to iterate in rt.MapKeys order, which does not depend on the
// process as Go's randomized order does:
//
//	for it, k, v := rt.MapRange(m); it.Next(); { k, v = it.Key(), it.Value(); ... }
//
// The range expression is evaluated once, by the init statement. k and v are
// declared by the init statement, so that they are shared by all iterations
// before Go 1.22 and copied into each iteration from Go 1.22 on, as the
// range's own variables are; the body keeps its own scope (it may redeclare
// k). for k, v = range m assigns k and v (instrumented memory if they are)
// at the top of each iteration.
func (r *rewriter) mapRange(s *ast.RangeStmt, lab *ast.LabeledStmt) ast.Stmt {
	pos := s.For
	it := r.tmp(pos)
	blank := func() ast.Expr { return ident("_", pos) }
	lhs := []ast.Expr{it, blank(), blank()}
	var set *ast.AssignStmt
	for i, e := range []ast.Expr{s.Key, s.Value} {
		if isBlank(e) {
			continue
		}
		if set == nil {
			set = &ast.AssignStmt{TokPos: pos, Tok: token.ASSIGN}
		}
		get := "Key"
		if i == 1 {
			get = "Value"
		}
		call := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(it.Name, pos), Sel: ident(get, pos)}, Lparen: pos, Rparen: pos}
		if s.Tok == token.DEFINE {
			id := e.(*ast.Ident)
			lhs[i+1] = id
			set.Lhs = append(set.Lhs, ident(id.Name, pos))
		} else {
			set.Lhs = append(set.Lhs, r.lhs(e))
		}
		set.Rhs = append(set.Rhs, call)
	}
	writes := r.loopVarWrites(s)
	// Iterating reads the map, as -race sees it: a write by another
	// goroutine, unordered with the range, is a race.
	x := r.hook(pos, "MapR", r.site(pos), r.expr(s.X))
	r.block(s.Body)
	s.Body.List = append(writes, s.Body.List...)
	if set != nil {
		s.Body.List = append([]ast.Stmt{set}, s.Body.List...)
	}
	next := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(it.Name, pos), Sel: ident("Next", pos)}, Lparen: pos, Rparen: pos}
	var loop ast.Stmt = &ast.ForStmt{For: pos,
		Init: define(pos, lhs, r.hook(pos, "MapRange", x)),
		Cond: next,
		Body: s.Body}
	if lab != nil {
		lab.Stmt = loop
		loop = lab
	}
	return loop
}

// mapCore returns the map type that is t's core type, if any: t's underlying
// type, or the one underlying type of every type in a type parameter's set.
func mapCore(t types.Type) *types.Map {
	if t == nil {
		return nil
	}
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		m, _ := t.Underlying().(*types.Map)
		return m
	}
	var core *types.Map
	for _, t := range typeSetTerms(tp) {
		m, ok := t.Underlying().(*types.Map)
		switch {
		case !ok:
			return nil
		case core == nil:
			core = m
		case !types.Identical(core, m):
			return nil
		}
	}
	return core
}

// typeSetTerms lists the types of a type parameter's constraint: the terms
// of its unions and embedded types, through embedded interfaces.
func typeSetTerms(tp *types.TypeParam) []types.Type {
	var terms []types.Type
	var visit func(iface *types.Interface)
	visit = func(iface *types.Interface) {
		for i := 0; i < iface.NumEmbeddeds(); i++ {
			switch e := types.Unalias(iface.EmbeddedType(i)).(type) {
			case *types.Union:
				for j := 0; j < e.Len(); j++ {
					terms = append(terms, e.Term(j).Type())
				}
			default:
				if in, ok := e.Underlying().(*types.Interface); ok {
					visit(in)
					continue
				}
				terms = append(terms, e)
			}
		}
	}
	if iface, ok := tp.Underlying().(*types.Interface); ok {
		visit(iface)
	}
	return terms
}

// rangeWrites reports for k, v = range x whose k or v is instrumented memory
// and whose iteration values do not take their type from k and v (range 10).
func (r *rewriter) rangeWrites(s *ast.RangeStmt) bool {
	if tv := r.info.Types[s.X]; tv.Value != nil {
		return false
	}
	for _, e := range []ast.Expr{s.Key, s.Value} {
		if isBlank(e) {
			continue
		}
		if ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok {
			if _, isMap := under(r.info.TypeOf(ix.X)).(*types.Map); isMap {
				return true
			}
		}
		if r.isLoc(e) {
			return true
		}
	}
	return false
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return e == nil || ok && id.Name == "_"
}

// selectStmt rewrites a select so that the scheduler picks the case:
//
//	{ c0 := ch0; c1, v1 := ch1, v
//	  sel := rt.Select(site, hasDefault, rt.RecvCase(c0), rt.SendCase(c1))
//	  select {
//	  case x := <-rt.RecvIf(sel, 0, c0): rt.SelectCaseDone(sel, 0); ...
//	  case rt.SendIf(sel, 1, c1) <- v1: rt.SelectCaseDone(sel, 1); ...
//	  case <-rt.DefaultIf(sel): rt.SelectDone(sel); ... } }
//
// Operands are evaluated once, in source order, as Go does on entering a select.
func (r *rewriter) selectStmt(s *ast.SelectStmt, lab *ast.LabeledStmt) ast.Stmt {
	pos := s.Select
	if len(s.Body.List) == 0 {
		// select {} blocks forever; the panic keeps it a terminating statement.
		var forever ast.Stmt = &ast.ExprStmt{X: r.hook(pos, "BlockForever", r.site(pos))}
		if lab != nil {
			lab.Stmt = forever
			forever = lab
		}
		unreachable := &ast.ExprStmt{X: &ast.CallExpr{Fun: ident("panic", pos), Lparen: pos,
			Args: []ast.Expr{&ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote("unreachable")}}, Rparen: pos}}
		return block(pos, forever, unreachable)
	}
	sel := r.tmp(pos).Name
	at := func(name string, p token.Pos) *ast.Ident { return ident(name, p) }
	var pre []ast.Stmt
	var cases []ast.Expr
	hasDefault := false
	for _, cl := range s.Body.List {
		cc := cl.(*ast.CommClause)
		cpos := cc.Case
		idx := &ast.BasicLit{ValuePos: cpos, Kind: token.INT, Value: strconv.Itoa(len(cases))}
		isDefault := cc.Comm == nil
		switch comm := cc.Comm.(type) {
		case nil:
			hasDefault = true
			ifDefault := r.hook(cpos, "DefaultIf", at(sel, cpos))
			cc.Comm = &ast.ExprStmt{X: &ast.UnaryExpr{OpPos: cpos, Op: token.ARROW, X: ifDefault}}
		case *ast.SendStmt:
			c := r.tmp(cpos)
			lhs, rhs := []ast.Expr{c}, []ast.Expr{r.expr(comm.Chan)}
			if r.needsTemp(comm.Value) {
				v := r.tmp(cpos)
				lhs, rhs = append(lhs, v), append(rhs, r.expr(comm.Value))
				comm.Value = at(v.Name, comm.Value.Pos())
			} else {
				comm.Value = r.expr(comm.Value)
			}
			pre = append(pre, define(cpos, lhs, rhs...))
			cases = append(cases, r.hook(pos, "SendCase", at(c.Name, pos)))
			comm.Chan = r.hook(cpos, "SendIf", at(sel, cpos), idx, at(c.Name, cpos))
		case *ast.ExprStmt:
			pre = append(pre, r.selectRecv(pos, recvOf(comm.X), sel, idx, &cases))
		case *ast.AssignStmt:
			if comm.Tok == token.ASSIGN {
				for i, e := range comm.Lhs {
					comm.Lhs[i] = r.lhs(e)
				}
			}
			pre = append(pre, r.selectRecv(pos, recvOf(comm.Rhs[0]), sel, idx, &cases))
		}
		cc.Body = r.stmts(cc.Body)
		// A channel case names its index: a goroutine whose select the
		// real select decided (plain mode) tells the engine which case fired.
		var done ast.Stmt = &ast.ExprStmt{X: r.hook(cc.Colon, "SelectDone", at(sel, cc.Colon))}
		if !isDefault {
			done = &ast.ExprStmt{X: r.hook(cc.Colon, "SelectCaseDone", at(sel, cc.Colon), &ast.BasicLit{ValuePos: cc.Colon, Kind: token.INT, Value: idx.Value})}
		}
		cc.Body = append([]ast.Stmt{done}, cc.Body...)
	}
	hasDef := ident(strconv.FormatBool(hasDefault), pos)
	choose := r.hook(pos, "Select", append([]ast.Expr{r.site(pos), hasDef}, cases...)...)
	pre = append(pre, define(pos, []ast.Expr{at(sel, pos)}, choose))
	return r.labeledBlock(pos, s.Body.Rbrace, lab, s, pre...)
}

// labeledBlock is { pre; lab: inner }, the rewrite of a labeled statement
// that needs temporaries declared before it. When a goto targets the label,
// it cannot stay inside the block (a goto from outside may not jump into
// one): the block takes the label, and inner a fresh one for the break and
// continue statements that name it (lab: { pre; fresh: inner }).
func (r *rewriter) labeledBlock(pos, rbrace token.Pos, lab *ast.LabeledStmt, inner ast.Stmt, pre ...ast.Stmt) ast.Stmt {
	if lab != nil && !r.gotoTarget(lab) {
		lab.Stmt, inner = inner, lab
	}
	if lab == nil || inner == lab {
		b := block(pos, append(pre, inner)...)
		b.Rbrace = rbrace
		return b
	}
	fresh := r.tmp(lab.Colon)
	named := false
	ast.Inspect(inner, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // labels do not reach into function literals
		case *ast.BranchStmt:
			if n.Label != nil && n.Label.Name == lab.Label.Name && n.Tok != token.GOTO {
				n.Label = ident(fresh.Name, n.Label.Pos())
				named = true
			}
		}
		return true
	})
	if named {
		inner = &ast.LabeledStmt{Label: fresh, Colon: lab.Colon, Stmt: inner}
	}
	b := block(pos, append(pre, inner)...)
	b.Rbrace = rbrace
	lab.Stmt = b
	return lab
}

// gotoTarget reports whether a goto statement names lab's label.
func (r *rewriter) gotoTarget(lab *ast.LabeledStmt) bool {
	if r.gotoLabels == nil {
		r.gotoLabels = map[types.Object]bool{}
		ast.Inspect(r.file, func(n ast.Node) bool {
			if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil {
				if obj := r.info.Uses[b.Label]; obj != nil {
					r.gotoLabels[obj] = true
				}
			}
			return true
		})
	}
	return r.gotoLabels[r.info.Defs[lab.Label]]
}

// selectRecv evaluates a receive case's channel into a temporary and points
// the real case at rt.RecvIf.
func (r *rewriter) selectRecv(pos token.Pos, u *ast.UnaryExpr, sel string, idx ast.Expr, cases *[]ast.Expr) ast.Stmt {
	cpos := u.OpPos
	c := r.tmp(cpos)
	def := define(cpos, []ast.Expr{c}, r.expr(u.X))
	*cases = append(*cases, r.hook(pos, "RecvCase", ident(c.Name, pos)))
	u.X = r.hook(cpos, "RecvIf", ident(sel, cpos), idx, ident(c.Name, cpos))
	return def
}

// chanCore returns the channel type an operation on a value of type t
// works on: t's underlying channel type, or the core type of a type
// parameter whose type set holds channel types only (all with one element
// type; bidirectional ones and ones of a single direction, which is then the
// core's). nil when t is no such type. rt's generic hooks infer their
// element type from a type parameter's core type, so an operation with a
// core type is controlled as one on a plain channel.
func chanCore(t types.Type) *types.Chan {
	if t == nil {
		return nil
	}
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		c, _ := t.Underlying().(*types.Chan)
		return c
	}
	var core *types.Chan
	for _, t := range typeSetTerms(tp) {
		c, ok := t.Underlying().(*types.Chan)
		if !ok {
			return nil
		}
		switch {
		case core == nil:
			core = c
		case !types.Identical(core.Elem(), c.Elem()):
			return nil
		case core.Dir() == c.Dir():
		case core.Dir() == types.SendRecv:
			core = c
		case c.Dir() != types.SendRecv:
			return nil // both directions: no core type
		}
	}
	return core
}

// chanParam reports a type parameter whose type set holds channel types.
func chanParam(t types.Type) bool {
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return false
	}
	iface, ok := tp.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		switch e := iface.EmbeddedType(i).(type) {
		case *types.Union:
			for j := 0; j < e.Len(); j++ {
				if _, ok := e.Term(j).Type().Underlying().(*types.Chan); ok {
					return true
				}
			}
		default:
			if _, ok := e.Underlying().(*types.Chan); ok {
				return true
			}
		}
	}
	return false
}

// readMemStats rewrites the statement runtime.ReadMemStats(x) into
// { m := x; runtime.ReadMemStats(m); rt.OwnHeapOut(m) }, on x's line: the
// runtime's frame is called from the program's own, as under go test.
// golang.org/x/telemetry's crash monitor test makes ReadMemStats fault
// and matches the crash's stack, frame by frame; a hook around the call
// was one frame too many. A call in an expression or a go or defer
// statement keeps the hook (rt.ReadMemStats).
func (r *rewriter) readMemStats(s *ast.ExprStmt) ast.Stmt {
	c, ok := ast.Unparen(s.X).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 || c.Ellipsis.IsValid() || r.simple > 0 { // no blocks in an if/for/switch header
		return nil
	}
	f, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	fn, ok := r.info.Uses[f.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "runtime" || fn.Name() != "ReadMemStats" || r.info.Selections[f] != nil {
		return nil
	}
	pos := c.Pos()
	m := r.tmp(pos)
	c.Args[0] = r.expr(c.Args[0])
	arg := c.Args[0]
	c.Args[0] = ident(m.Name, arg.Pos())
	return block(pos,
		define(pos, []ast.Expr{m}, arg),
		s,
		&ast.ExprStmt{X: r.hook(c.Rparen, "OwnHeapOut", ident(m.Name, c.Rparen))})
}
