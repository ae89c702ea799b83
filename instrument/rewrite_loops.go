package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Polls in bounded loops. A select with a default, a runtime.Gosched or a
// TryLock is a poll: a goroutine that does nothing else between polls waits
// for another goroutine or for time, and the engine lets virtual time move
// for it. In a loop that ends by itself (a range over a slice, an array, a
// string, a map or an integer; a counted for loop) the poll is a check for
// cancellation between two items of work, and the work may be on memory the
// rewriter proved goroutine-local, which has no hooks: the engine saw only
// the polls and jumped the clock to the test's timeout. Such a loop's body
// starts with rt.Iteration(), which tells the engine that an item of work
// is under way.

// iterationMark is the statement that starts each iteration of loop, a
// *ast.ForStmt or *ast.RangeStmt of the original source, or nil when the
// loop is not bounded or its body does not poll.
func (r *rewriter) iterationMark(loop ast.Stmt) ast.Stmt {
	var body *ast.BlockStmt
	switch s := loop.(type) {
	case *ast.ForStmt:
		if !countedLoop(s) {
			return nil
		}
		body = s.Body
	case *ast.RangeStmt:
		if !r.finiteRange(s) {
			return nil
		}
		body = s.Body
	default:
		return nil
	}
	if !r.polls(body) {
		return nil
	}
	return &ast.ExprStmt{X: r.hook(loop.Pos(), "Iteration")}
}

// countedLoop: for i := a; i < b; i++ (any comparison, ++, --, += or -=
// of the variable the init statement sets and the condition compares).
func countedLoop(s *ast.ForStmt) bool {
	init, ok := s.Init.(*ast.AssignStmt)
	if !ok || len(init.Lhs) != 1 || init.Tok != token.DEFINE && init.Tok != token.ASSIGN {
		return false
	}
	v, ok := init.Lhs[0].(*ast.Ident)
	if !ok || v.Name == "_" {
		return false
	}
	cond, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch cond.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.NEQ:
	default:
		return false
	}
	if !sameIdent(cond.X, v) && !sameIdent(cond.Y, v) {
		return false
	}
	switch post := s.Post.(type) {
	case *ast.IncDecStmt:
		return sameIdent(post.X, v)
	case *ast.AssignStmt:
		return (post.Tok == token.ADD_ASSIGN || post.Tok == token.SUB_ASSIGN) && len(post.Lhs) == 1 && sameIdent(post.Lhs[0], v)
	}
	return false
}

func sameIdent(e ast.Expr, v *ast.Ident) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == v.Name
}

// finiteRange: a range over a slice, array (or a pointer to one), string,
// map or integer. A channel waits and an iterator function may never end.
func (r *rewriter) finiteRange(s *ast.RangeStmt) bool {
	t := r.info.TypeOf(s.X)
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map:
		return true
	case *types.Basic:
		return u.Info()&(types.IsString|types.IsInteger) != 0
	}
	return false
}

// polls reports whether body, outside its nested loops and function
// literals, has a select with a default, a runtime.Gosched call or a
// TryLock of a sync mutex.
func (r *rewriter) polls(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.SelectStmt:
			for _, c := range n.Body.List {
				if c.(*ast.CommClause).Comm == nil {
					found = true
				}
			}
		case *ast.CallExpr:
			var fn *types.Func
			switch f := ast.Unparen(n.Fun).(type) {
			case *ast.Ident:
				fn, _ = r.info.Uses[f].(*types.Func)
			case *ast.SelectorExpr:
				fn, _ = r.info.Uses[f.Sel].(*types.Func)
			}
			if fn != nil && fn.Pkg() != nil {
				switch fn.Pkg().Path() + "." + fn.Name() {
				case "runtime.Gosched", "sync.TryLock", "sync.TryRLock":
					found = true
				}
			}
		}
		return true
	})
	return found
}
