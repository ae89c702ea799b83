package instrument

import (
	"go/ast"
	"go/types"
	"strings"
)

// linkedClocks are the runtime's clocks that packages read directly through
// //go:linkname for speed (a rate limiter's fasttime.Now on time.now),
// with the rt hook that reads Period's clock instead and the signature the
// declaration must have. Left alone, such a clock is the real one while
// time.Now, Sleep and timers are virtual: a bucket that a virtual Sleep
// should have refilled stays empty.
var linkedClocks = map[string]struct{ hook, sig string }{
	"time.now":          {"LinkTimeNow", "func() (int64, int32, int64)"},
	"runtime.walltime":  {"LinkWalltime", "func() (int64, int32)"},
	"runtime.nanotime":  {"LinkNanotime", "func() int64"},
	"runtime.nanotime1": {"LinkNanotime", "func() int64"},
	"time.runtimeNano":  {"LinkNanotime", "func() int64"},
}

// linkedClock gives a body-less function declared with //go:linkname to
// one of linkedClocks a body that returns the hook's reading, and turns
// its directives into plain comments (a function with a body cannot be
// linknamed to the runtime's, nor be //go:noescape).
func (r *rewriter) linkedClock(d *ast.FuncDecl) {
	obj, _ := r.info.Defs[d.Name].(*types.Func)
	if obj == nil || d.Recv != nil {
		return
	}
	var directive *ast.Comment
	var target string
	for _, cg := range r.file.Comments {
		for _, c := range cg.List {
			f := strings.Fields(c.Text)
			if len(f) == 3 && f[0] == "//go:linkname" && f[1] == d.Name.Name {
				directive, target = c, f[2]
			}
		}
	}
	lc, ok := linkedClocks[target]
	if directive == nil || !ok || unnamedSig(obj.Type().(*types.Signature)) != lc.sig {
		return
	}
	directive.Text = "// period: was //go:linkname to " + target + ", reads Period's clock"
	if d.Doc != nil {
		for _, c := range d.Doc.List {
			if strings.HasPrefix(c.Text, "//go:noescape") {
				c.Text = "// period: was //go:noescape"
			}
		}
	}
	pos := d.Type.End()
	d.Body = block(pos, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{r.hook(pos, lc.hook)}})
	r.changed = true
}

// unnamedSig renders sig without parameter names: func() (int64, int32).
func unnamedSig(sig *types.Signature) string {
	list := func(t *types.Tuple) string {
		var ss []string
		for i := 0; i < t.Len(); i++ {
			ss = append(ss, types.TypeString(t.At(i).Type(), nil))
		}
		return strings.Join(ss, ", ")
	}
	s := "func(" + list(sig.Params()) + ")"
	switch sig.Results().Len() {
	case 0:
	case 1:
		s += " " + list(sig.Results())
	default:
		s += " (" + list(sig.Results()) + ")"
	}
	return s
}
