package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// This file rewrites calls: builtins (close, delete), the functions and
// methods of sync, sync/atomic, time, context, runtime, os and testing that
// have an rt hook, and ordinary calls (whose operands are rewritten).

// timeFuncs are package functions replaced by the rt hook of the same name;
// the bool says whether the hook takes a site first.
var timeFuncs = map[string]bool{
	"time.Sleep": true, "time.After": true, "time.Tick": true, "time.NewTimer": true,
	"time.NewTicker": true, "time.AfterFunc": true,
	"time.Now": false, "time.Since": false, "time.Until": false,
	"context.WithCancel": false, "context.WithCancelCause": false,
	"context.WithTimeout": false, "context.WithDeadline": false,
	"context.WithTimeoutCause": false, "context.WithDeadlineCause": false, "context.AfterFunc": true,
	"sync.OnceFunc": false, "sync.OnceValue": false, "sync.OnceValues": false, "sync.NewCond": false,
	"runtime.Gosched": true, "runtime.GC": false, "runtime.ReadMemStats": false, "runtime.NumGoroutine": false, "runtime.Caller": false, "runtime.Callers": false, "runtime.Stack": false, "os.Exit": true, "testing.Verbose": false, "testing.AllocsPerRun": false,
	"testing/synctest.Test": true, "testing/synctest.Wait": true,
	"iter.Pull": false, "iter.Pull2": false,
	"maps.All": false, "maps.Keys": false, "maps.Values": false,
	"crypto/rand.Read": false, "crypto/rand.Text": false,
	"syscall.Kill":        true,
	"runtime/debug.Stack": false,
}

// hookName maps a package function to its hook (runtime.Gosched -> Gosched).
func hookName(fn *types.Func) string {
	if fn.Pkg().Path() == "testing/synctest" {
		return "Synctest" + fn.Name() // synctest.Test -> rt.SynctestTest
	}
	if fn.Pkg().Path() == "context" && fn.Name() == "AfterFunc" {
		return "ContextAfterFunc" // time.AfterFunc has AfterFunc
	}
	if fn.Pkg().Path() == "syscall" {
		return "Syscall" + fn.Name() // syscall.Kill -> rt.SyscallKill
	}
	if fn.Pkg().Path() == "runtime/debug" {
		return "Debug" + fn.Name() // debug.Stack -> rt.DebugStack
	}
	if fn.Pkg().Path() == "crypto/rand" {
		return "Crypto" + fn.Name() // crypto/rand.Read -> rt.CryptoRead
	}
	if fn.Pkg().Path() == "maps" {
		return "Maps" + fn.Name() // maps.Keys -> rt.MapsKeys
	}
	return fn.Name()
}

// methodHooks maps "pkg.Type.Method" to the rt hook that takes the receiver
// pointer: rt.Lock(site, &mu). siteless hooks are listed in noSite.
var methodHooks = map[string]string{
	"sync.Mutex.Lock": "Lock", "sync.Mutex.Unlock": "Unlock", "sync.Mutex.TryLock": "TryLock",
	"sync.RWMutex.Lock": "RWLock", "sync.RWMutex.Unlock": "RWUnlock", "sync.RWMutex.TryLock": "RWTryLock",
	"sync.RWMutex.RLock": "RLock", "sync.RWMutex.RUnlock": "RUnlock", "sync.RWMutex.TryRLock": "TryRLock",
	"sync.RWMutex.RLocker": "RLocker",
	"sync.WaitGroup.Add":   "WGAdd", "sync.WaitGroup.Done": "WGDone", "sync.WaitGroup.Wait": "WGWait",
	"sync.WaitGroup.Go": "WGGo",
	"sync.Once.Do":      "OnceDo",
	"sync.Cond.Wait":    "CondWait", "sync.Cond.Signal": "CondSignal", "sync.Cond.Broadcast": "CondBroadcast",
	"sync.Pool.Get": "PoolGet", "sync.Pool.Put": "PoolPut",
	"sync.Map.Range":  "SyncMapRange",
	"time.Timer.Stop": "TimerStop", "time.Timer.Reset": "TimerReset",
	"time.Ticker.Stop": "TickerStop", "time.Ticker.Reset": "TickerReset",
	"testing.T.Run": "TRun", "testing.T.Parallel": "TParallel",
}

var noSite = map[string]bool{"RLocker": true}

// lateHooks are the testing methods that panic under go test when called
// after the test completed (rt/tlog.go): rt.TLog(t, args...).
var lateHooks = map[string]string{
	"Log": "TLog", "Logf": "TLogf", "Error": "TError", "Errorf": "TErrorf",
	"Fatal": "TFatal", "Fatalf": "TFatalf", "Skip": "TSkip", "Skipf": "TSkipf",
	"Fail": "TFail", "FailNow": "TFailNow",
}

// tbMethod reports whether fn, a method of an interface, has the
// signature of testing.TB's method of the same name: a *testing.T may be
// behind the interface (a logger's TestingT).
func (r *rewriter) tbMethod(fn *types.Func) bool {
	tb := r.testingTB()
	if tb == nil {
		// testing is not in the package's build (testify's assert
		// declares its TestingT to avoid importing it): the shape of
		// testing.TB's method is checked instead.
		return tbShape(fn.Name(), fn.Type().(*types.Signature))
	}
	obj, _, _ := types.LookupFieldOrMethod(tb, false, nil, fn.Name())
	m, ok := obj.(*types.Func)
	return ok && types.Identical(m.Type().(*types.Signature), fn.Type().(*types.Signature))
}

// tbShape reports whether sig is the signature testing.TB gives the method
// name (one of lateHooks'): (args ...any), (format string, args ...any) for
// the f forms, () for Fail and FailNow; no results.
func tbShape(name string, sig *types.Signature) bool {
	if sig.Results().Len() != 0 {
		return false
	}
	ps := sig.Params()
	if name == "Fail" || name == "FailNow" {
		return ps.Len() == 0
	}
	n := 1
	if strings.HasSuffix(name, "f") {
		n = 2
		if ps.Len() != 2 || !types.Identical(ps.At(0).Type(), types.Typ[types.String]) {
			return false
		}
	}
	if ps.Len() != n || !sig.Variadic() {
		return false
	}
	sl, ok := ps.At(n - 1).Type().(*types.Slice)
	if !ok {
		return false
	}
	it, ok := sl.Elem().Underlying().(*types.Interface)
	return ok && it.Empty()
}

// testingTB finds testing.TB among the packages the file's package imports,
// directly or not (nil if testing is not in the build).
func (r *rewriter) testingTB() types.Type {
	if r.tb == nil {
		r.tb = types.Typ[types.Invalid]
		seen := map[*types.Package]bool{}
		var visit func(p *types.Package)
		visit = func(p *types.Package) {
			if seen[p] || r.tb != types.Typ[types.Invalid] {
				return
			}
			seen[p] = true
			if p.Path() == "testing" {
				if o := p.Scope().Lookup("TB"); o != nil {
					r.tb = o.Type()
				}
				return
			}
			for _, q := range p.Imports() {
				visit(q)
			}
		}
		visit(r.pkg)
	}
	if r.tb == types.Typ[types.Invalid] {
		return nil
	}
	return r.tb
}

// call rewrites a call expression. The result is always a *ast.CallExpr
// (defer and go need one).
func (r *rewriter) call(c *ast.CallExpr) *ast.CallExpr {
	fun := ast.Unparen(c.Fun)
	tv := r.info.Types[c.Fun]
	if tv.IsType() { // conversion
		if len(c.Args) == 1 && isUnsafePointer(r.info.TypeOf(c.Args[0])) && holdsChan(tv.Type) {
			r.note(c.Pos(), "channel reached through unsafe.Pointer: uses by uninstrumented code are not controlled")
		}
		r.args(c)
		return c
	}
	if tv.IsBuiltin() {
		return r.builtin(c)
	}
	var fn *types.Func
	var sel *types.Selection
	switch f := fun.(type) {
	case *ast.Ident:
		fn, _ = r.info.Uses[f].(*types.Func)
	case *ast.SelectorExpr:
		if sel = r.info.Selections[f]; sel != nil {
			fn, _ = sel.Obj().(*types.Func)
		} else {
			fn, _ = r.info.Uses[f.Sel].(*types.Func)
		}
	case *ast.IndexExpr:
		fn = r.genericCallee(f.X)
	case *ast.IndexListExpr:
		fn = r.genericCallee(f.X)
	}
	if fn != nil && fn.Pkg() != nil {
		if sel != nil && sel.Kind() == types.MethodVal {
			if f := r.viaEmbeddedIface(fun.(*ast.SelectorExpr), sel); f != nil {
				// s.in.Lock() with s.in a struct embedding sync.Locker:
				// the call through the interface, s.in.Locker.Lock().
				c2 := *c
				c2.Fun = f
				if out := r.specialMethod(&c2, f, sel, fn); out != nil {
					return out
				}
			}
			if out := r.specialMethod(c, fun.(*ast.SelectorExpr), sel, fn); out != nil {
				return out
			}
		} else if sel == nil {
			if out := r.specialFunc(c, fun, fn); out != nil {
				return out
			}
		}
	}
	if s, ok := fun.(*ast.SelectorExpr); ok && sel != nil && sel.Kind() == types.MethodVal {
		recvType := r.info.TypeOf(s.X)
		s.X = r.receiver(s.X, sel)
		if realIOType(recvType) && (isPointer(recvType) || types.IsInterface(recvType)) {
			s.X = r.hook(s.Pos(), "IO", s.X)
		}
	} else if _, isInst := fun.(*ast.IndexExpr); !isInst {
		if _, isInst := fun.(*ast.IndexListExpr); !isInst {
			c.Fun = r.expr(c.Fun)
		}
	}
	for i, a := range c.Args {
		t := r.info.TypeOf(a)
		c.Args[i] = r.expr(a)
		if realIOType(t) {
			c.Args[i] = r.hook(a.Pos(), "IO", c.Args[i])
		}
	}
	return c
}

// unIO drops the rt.IO wrappers of a call started by go or defer: they
// would mark the goroutine running the statement, at the statement, not
// the one making the call when it makes it.
func (r *rewriter) unIO(c *ast.CallExpr) *ast.CallExpr {
	if s, ok := c.Fun.(*ast.SelectorExpr); ok {
		if h, ok := r.isHook(s.X, "IO"); ok {
			s.X = h.Args[0]
		}
	}
	for i, a := range c.Args {
		if h, ok := r.isHook(a, "IO"); ok {
			c.Args[i] = h.Args[0]
		}
	}
	return c
}

// realIOTypes are the standard library's connections, listeners, pipes,
// files and processes: a goroutine that uses one synchronises with others
// through channels, locks and atomics inside them (a net.Pipe's) that
// Period does not see; the rewriter passes them through rt.IO, which marks
// the goroutine (a file only if it is a pipe or a socket) so that its
// races are not reported, as those of a goroutine found waiting for real
// are not.
var realIOTypes = map[string]bool{
	"net.Conn": true, "net.Listener": true, "net.PacketConn": true,
	"net.TCPConn": true, "net.UDPConn": true, "net.UnixConn": true, "net.IPConn": true,
	"net.TCPListener": true, "net.UnixListener": true,
	"crypto/tls.Conn": true, "io.PipeReader": true, "io.PipeWriter": true, "os.File": true,
	// A child process orders its killer before its waiter (os.Process's
	// atomics, which -race sees).
	"os.Process": true, "os/exec.Cmd": true,
	// A request waits for the network: its goroutine is let go within
	// about a millisecond (rt.IO's probe), not the watchdog's 1 to 2, so
	// requests sent at once go out at once (minio-go's
	// TestComposeObjectParallel counts four copies in flight at a server
	// that takes 20 ms for each).
	"net/http.Client": true, "net/http.Transport": true,
	// database/sql hands a driver's connection from goroutine to goroutine
	// through its pool, under its own locks: the driver's unguarded
	// fields are not shared at once (modernc.org/sqlite's conn in
	// axllent/mailpit's tests; go test -race agrees).
	"database/sql.DB": true, "database/sql.Conn": true, "database/sql.Tx": true,
	"database/sql.Stmt": true, "database/sql.Rows": true, "database/sql.Row": true,
}

// realIOType tells whether t, or what it points to, is one of realIOTypes.
func realIOType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return realIOTypes[n.Obj().Pkg().Path()+"."+n.Obj().Name()]
}

func (r *rewriter) genericCallee(x ast.Expr) *types.Func {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		fn, _ := r.info.Uses[x].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := r.info.Uses[x.Sel].(*types.Func)
		return fn
	}
	return nil
}

func (r *rewriter) args(c *ast.CallExpr) {
	for i, a := range c.Args {
		c.Args[i] = r.expr(a)
	}
}

// tupleArg reports f(g()) where g returns several values (no site can be
// added in front of such an argument list); n is their number.
func (r *rewriter) tupleArg(c *ast.CallExpr) (n int) {
	if len(c.Args) != 1 {
		return 0
	}
	if t, ok := r.info.TypeOf(c.Args[0]).(*types.Tuple); ok {
		return t.Len()
	}
	return 0
}

// maxTuple is the most results rt's TupleN helpers take.
const maxTuple = 6

// lateArgsOK tells whether the t.Log-like call c can take its hook: a call
// of a function with several results as its only argument (t.Fatal(f()),
// legal Go: the results become the variadic arguments) can, through
// rt.TupleN, unless the method takes a format first (t.Fatalf(f())) or
// the results are too many; such a call stays as it is.
func (r *rewriter) lateArgsOK(c *ast.CallExpr, name string) bool {
	n := r.tupleArg(c)
	return n == 0 || !strings.HasSuffix(name, "f") && n <= maxTuple
}

// lateHook rewrites the t.Log-like call c into hook(x, args...), x the
// rewritten receiver: t.Fatal(f()) with f of several results gives
// rt.TFatal(t, rt.Tuple2(f())...), a gojq test's idiom (lateArgsOK).
func (r *rewriter) lateHook(c *ast.CallExpr, pos token.Pos, hook string, x ast.Expr) *ast.CallExpr {
	n := r.tupleArg(c) // before the arguments are rewritten
	r.args(c)
	args, ellipsis := c.Args, c.Ellipsis
	if n > 0 {
		args, ellipsis = []ast.Expr{r.hook(c.Args[0].Pos(), "Tuple"+strconv.Itoa(n), c.Args[0])}, c.Rparen
	}
	out := r.hook(pos, hook, append([]ast.Expr{x}, args...)...)
	out.Ellipsis, out.Rparen = ellipsis, c.Rparen
	return out
}

func (r *rewriter) builtin(c *ast.CallExpr) *ast.CallExpr {
	var name string
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.Ident:
		if b, ok := r.info.Uses[f].(*types.Builtin); ok {
			name = b.Name()
		}
	case *ast.SelectorExpr:
		if b, ok := r.info.Uses[f.Sel].(*types.Builtin); ok {
			name = b.Name() // unsafe.X
		}
	}
	pos := c.Pos()
	switch name {
	case "Offsetof", "Sizeof", "Alignof":
		return c // operands are not evaluated
	case "new":
		p, isPtr := r.info.TypeOf(c).(*types.Pointer)
		if tv := r.info.Types[c.Args[0]]; isPtr && tv.IsType() && zeroSized(p.Elem()) {
			return r.hook(pos, "OnHeap", c) // as &T{} (rt.OnHeap)
		}
	case "close":
		if chanCore(r.info.TypeOf(c.Args[0])) != nil {
			return r.hook(pos, "Close", r.site(pos), r.expr(c.Args[0]))
		}
		r.note(pos, "close of a value of type parameter type with no core type is not controlled")
	case "len", "cap":
		if r.timerChan(c.Args[0]) {
			// Go 1.23's timer channels are synchronous: len and cap are 0,
			// where Period's virtual timer feeds a one-slot buffer.
			return r.hook(pos, "TimerChan"+strings.ToUpper(name[:1])+name[1:], r.expr(c.Args[0]))
		}
	case "delete", "clear":
		if _, ok := under(r.info.TypeOf(c.Args[0])).(*types.Map); ok {
			c.Args[0] = r.hook(pos, "MapW", r.site(pos), r.expr(c.Args[0]))
			for i := 1; i < len(c.Args); i++ {
				c.Args[i] = r.expr(c.Args[i])
			}
			return c
		}
	}
	r.args(c)
	return c
}

// atomicHooks are the rt hooks of sync/atomic operations: a load only
// acquires and reads, a store only releases and writes, the others do both,
// as `go test -race` annotates them.
var (
	atomicHooks = []string{"Atomic", "AtomicLoad", "AtomicStore", "AtomicCAS"}
	wrapHooks   = []string{"Atomic", "AtomicLoad", "AtomicStore", "AtomicCAS", "SyncMap"} // hooks that wrap a receiver
)

// atomicHook picks the hook of the sync/atomic function or method name
// (LoadInt32, Store, CompareAndSwap...).
func atomicHook(name string) string {
	switch {
	case strings.HasPrefix(name, "Load"):
		return "AtomicLoad"
	case strings.HasPrefix(name, "Store"):
		return "AtomicStore"
	case strings.HasPrefix(name, "CompareAndSwap"):
		return "AtomicCAS"
	}
	return "Atomic"
}

// hookAfterArgs gives an atomic or sync.Map operation its key point after
// its arguments, when one of c.Args[from:] runs code or key points of its
// own: a hook on the receiver or on the pointer argument runs first (Go
// evaluates calls left to right), so `v.Store(build())` would publish the
// value before build's writes to it, and a goroutine that loads it would
// race with them (franz-go's copy-on-write topic maps, a false race). The
// last such argument a becomes rt.<hook>After[T](site, ptr, a), T the
// parameter's type where an untyped operand needs it; ptr is evaluated
// twice, so only a pointer expression that calls nothing qualifies. It
// reports whether it did so; the arguments are rewritten already.
func (r *rewriter) hookAfterArgs(c *ast.CallExpr, from int, hook string, pos token.Pos, ptr ast.Expr, params *types.Tuple) bool {
	if r.tupleArg(c) > 0 || c.Ellipsis.IsValid() || r.callsCode(ptr) {
		return false
	}
	k := -1
	for i := from; i < len(c.Args); i++ {
		if r.callsCode(c.Args[i]) {
			k = i
		}
	}
	if k < 0 || k >= params.Len() {
		return false
	}
	call := r.hook(c.Args[k].Pos(), hook+"After", r.site(pos), ptr, c.Args[k])
	switch t := types.Unalias(params.At(k).Type()).(type) {
	case *types.Basic:
		if t.Kind() != types.UnsafePointer {
			call.Fun = &ast.IndexExpr{X: call.Fun, Lbrack: pos, Index: r.typeExpr(t, pos), Rbrack: pos}
		}
	case *types.Interface:
		if t.Empty() {
			call.Fun = &ast.IndexExpr{X: call.Fun, Lbrack: pos, Index: r.typeExpr(t, pos), Rbrack: pos}
		}
	}
	c.Args[k] = call
	return true
}

// callsCode reports whether evaluating e (rewritten) calls a function, a
// hook included, or receives: anything but conversions and builtins.
func (r *rewriter) callsCode(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if tv, ok := r.info.Types[n.Fun]; !ok || !tv.IsType() && !tv.IsBuiltin() {
				found = true
			}
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		}
		return !found
	})
	return found
}

// casDone passes the result of a CompareAndSwap call c (already hooked
// with AtomicCAS) to rt.CASDone, which tells a swap that succeeded from
// one that only looked; other calls are returned as they are.
func (r *rewriter) casDone(c *ast.CallExpr, hook string) *ast.CallExpr {
	if hook != "AtomicCAS" {
		return c
	}
	out := r.hook(c.Pos(), "CASDone", c)
	out.Rparen = c.Rparen
	return out
}

// randCall rewrites a call of a top-level function of math/rand or
// math/rand/v2 that draws a number to draw it from the run's source
// (rt/rand.go): rand.Intn(n) => rt.MathRand().Intn(n), rand.N(d) =>
// rt.RandN(d), rand.Seed(s) => rt.RandSeed(s). Constructors (New,
// NewSource, NewPCG...) are left alone.
func (r *rewriter) randCall(c *ast.CallExpr, fun ast.Expr, fn *types.Func) *ast.CallExpr {
	pos := c.Pos()
	v2 := fn.Pkg().Path() == "math/rand/v2"
	if v2 && fn.Name() == "N" {
		r.args(c)
		out := r.hook(pos, "RandN", c.Args...)
		out.Rparen = c.Rparen
		if ix, ok := fun.(*ast.IndexExpr); ok { // rand.N[time.Duration](d)
			ix.X = out.Fun
			out.Fun = ix
		}
		return out
	}
	if !v2 && fn.Name() == "Seed" {
		r.args(c)
		out := r.hook(pos, "RandSeed", c.Args...)
		out.Rparen = c.Rparen
		return out
	}
	obj := fn.Pkg().Scope().Lookup("Rand")
	if obj == nil {
		return nil
	}
	m, _, _ := types.LookupFieldOrMethod(types.NewPointer(obj.Type()), false, fn.Pkg(), fn.Name())
	if mf, ok := m.(*types.Func); !ok || !types.Identical(mf.Type(), fn.Type()) {
		return nil
	}
	hook := "MathRand"
	if v2 {
		hook = "MathRandV2"
	}
	r.args(c)
	c.Fun = &ast.SelectorExpr{X: r.hook(pos, hook), Sel: ident(fn.Name(), pos)}
	return c
}

// specialFunc rewrites calls of package functions that have a hook.
func (r *rewriter) specialFunc(c *ast.CallExpr, fun ast.Expr, fn *types.Func) *ast.CallExpr {
	path := fn.Pkg().Path()
	key := path + "." + fn.Name()
	pos := c.Pos()
	if path == "sync/atomic" && len(c.Args) > 0 && r.tupleArg(c) == 0 {
		r.args(c)
		if !r.hookAfterArgs(c, 1, atomicHook(fn.Name()), pos, c.Args[0], fn.Type().(*types.Signature).Params()) {
			c.Args[0] = r.hook(c.Args[0].Pos(), atomicHook(fn.Name()), r.site(pos), c.Args[0])
		}
		return r.casDone(c, atomicHook(fn.Name()))
	}
	if (path == "math/rand" || path == "math/rand/v2") && r.tupleArg(c) == 0 {
		if out := r.randCall(c, fun, fn); out != nil {
			return out
		}
	}
	if key == "reflect.Select" {
		if r.tupleArg(c) > 0 {
			r.note(pos, "reflect.Select with a multi-value argument is not controlled")
			return nil
		}
		r.args(c)
		out := r.hook(pos, "ReflectSelect", r.site(pos), c.Args[0])
		out.Rparen = c.Rparen
		return out
	}
	withSite, ok := timeFuncs[key]
	if !ok {
		return nil
	}
	if withSite && r.tupleArg(c) > 0 {
		r.note(pos, "%s with a multi-value argument is not controlled", key)
		return nil
	}
	r.args(c)
	args := c.Args
	if withSite {
		args = append([]ast.Expr{r.site(pos)}, args...)
	}
	out := r.hook(pos, hookName(fn), args...)
	out.Ellipsis = c.Ellipsis
	out.Rparen = c.Rparen
	// Explicit instantiations keep their type arguments: sync.OnceValue[int](f).
	switch f := fun.(type) {
	case *ast.IndexExpr:
		f.X = out.Fun
		out.Fun = f
	case *ast.IndexListExpr:
		f.X = out.Fun
		out.Fun = f
	}
	return out
}

// timerIfaceHook names the rt hook for a call of Stop or Reset through an
// interface, when the method has the signature of time.Timer's or
// time.Ticker's; "" otherwise.
func timerIfaceHook(name string, sig *types.Signature) string {
	if sig.Variadic() || sig.Results().Len() > 1 {
		return ""
	}
	returnsBool := sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool])
	if sig.Results().Len() == 1 && !returnsBool {
		return ""
	}
	switch {
	case name == "Stop" && sig.Params().Len() == 0:
		if returnsBool {
			return "TimerStopIface"
		}
		return "TickerStopIface"
	case name == "Reset" && sig.Params().Len() == 1 && isDuration(sig.Params().At(0).Type()):
		if returnsBool {
			return "TimerResetIface"
		}
		return "TickerResetIface"
	}
	return ""
}

// deadlineHook names the rt hook for SetDeadline, SetReadDeadline or
// SetWriteDeadline with net.Conn's signature, func(time.Time) error; ""
// otherwise.
func deadlineHook(name string, sig *types.Signature) string {
	switch name {
	case "SetDeadline", "SetReadDeadline", "SetWriteDeadline":
	default:
		return ""
	}
	if sig.Variadic() || sig.Params().Len() != 1 || sig.Results().Len() != 1 {
		return ""
	}
	if pkg, n := namedIn(sig.Params().At(0).Type()); pkg != "time" || n != "Time" {
		return ""
	}
	if !types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type()) {
		return ""
	}
	return name + "Iface"
}

// deadlineCall rewrites x.SetDeadline(t) (or its kin) into rt.<h>(x, t).
func (r *rewriter) deadlineCall(c *ast.CallExpr, f *ast.SelectorExpr, h string) *ast.CallExpr {
	x := r.expr(f.X)
	r.args(c)
	out := r.hook(c.Pos(), h, append([]ast.Expr{x}, c.Args...)...)
	out.Rparen = c.Rparen
	return out
}

// isDuration tells whether t is time.Duration.
func isDuration(t types.Type) bool {
	pkg, name := namedIn(t)
	return pkg == "time" && name == "Duration"
}

// isCleanupSig tells whether sig is func(func()), the signature of
// testing.TB's Cleanup.
func isCleanupSig(sig *types.Signature) bool {
	if sig.Params().Len() != 1 || sig.Results().Len() != 0 || sig.Variadic() {
		return false
	}
	f, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	return ok && f.Params().Len() == 0 && f.Results().Len() == 0
}

// isNameSig reports whether sig is testing.TB.Name's: func() string.
func isNameSig(sig *types.Signature) bool {
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.String])
}

// isTRunSig reports whether sig is testing.T.Run's: func(string,
// func(*testing.T)) bool.
func isTRunSig(sig *types.Signature) bool {
	if sig.Params().Len() != 2 || sig.Results().Len() != 1 || sig.Variadic() {
		return false
	}
	if !types.Identical(sig.Params().At(0).Type(), types.Typ[types.String]) || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		return false
	}
	f, ok := sig.Params().At(1).Type().(*types.Signature)
	if !ok || f.Params().Len() != 1 || f.Results().Len() != 0 || f.Variadic() {
		return false
	}
	p, ok := f.Params().At(0).Type().(*types.Pointer)
	if !ok {
		return false
	}
	pkg, typ := namedIn(p.Elem())
	return pkg == "testing" && typ == "T"
}

// specialMethod rewrites calls of methods that have a hook, and calls of
// Lock/Unlock through an interface (a sync.Locker).
func (r *rewriter) specialMethod(c *ast.CallExpr, f *ast.SelectorExpr, sel *types.Selection, fn *types.Func) *ast.CallExpr {
	pos := c.Pos()
	sig := fn.Type().(*types.Signature)
	if types.IsInterface(r.info.TypeOf(f.X)) {
		if (fn.Name() == "Lock" || fn.Name() == "Unlock") && sig.Params().Len() == 0 && sig.Results().Len() == 0 && isLocker(r.info.TypeOf(f.X)) {
			return r.hook(pos, "Locker"+fn.Name(), r.site(pos), r.expr(f.X))
		}
		if (fn.Name() == "RLock" || fn.Name() == "RUnlock") && sig.Params().Len() == 0 && sig.Results().Len() == 0 {
			// Read locks through an interface of the program's
			// (syncthing's lib/sync.RWMutex, over a *sync.RWMutex): the
			// model must see them as it sees the write locks.
			return r.hook(pos, "Locker"+fn.Name(), r.site(pos), r.expr(f.X))
		}
		if h := deadlineHook(fn.Name(), sig); h != "" {
			// conn.SetDeadline(t) with conn a net.Conn (or any interface a
			// connection of the standard library satisfies): the hook moves
			// the virtual instant to the real clock for std's types.
			return r.deadlineCall(c, f, h)
		}
		if h := timerIfaceHook(fn.Name(), sig); h != "" {
			// x.Stop() or x.Reset(d) through an interface that a
			// *time.Timer or *time.Ticker may satisfy (a library's
			// timer interface over time.AfterFunc): the hook decides by
			// the dynamic type, since the clock's timers are not real ones.
			x := r.expr(f.X)
			r.args(c)
			out := r.hook(pos, h, append([]ast.Expr{r.site(pos), x}, c.Args...)...)
			out.Rparen = c.Rparen
			return out
		}
		if fn.Pkg().Path() == "testing" && fn.Name() == "Cleanup" {
			// tb.Cleanup(f) with tb a testing.TB
			r.args(c)
			out := r.hook(pos, "TCleanup", r.site(pos), r.expr(f.X), c.Args[0])
			out.Rparen = c.Rparen
			return out
		}
		if fn.Name() == "Cleanup" && fn.Pkg().Path() != "testing" && isCleanupSig(sig) {
			// x.Cleanup(f) through an interface of the program's own (a
			// library's Tester { Cleanup(func()) ... }) that a *testing.T
			// may satisfy: the hook decides by the dynamic type.
			r.args(c)
			out := r.hook(pos, "TCleanupVia", r.site(pos), r.expr(f.X), c.Args[0])
			out.Rparen = c.Rparen
			return out
		}
		if fn.Name() == "Parallel" && sig.Params().Len() == 0 && sig.Results().Len() == 0 {
			// x.Parallel() through an interface (go-internal's
			// testscript.T, over a struct embedding *testing.T): the hook
			// decides by the dynamic type.
			out := r.hook(pos, "TParallelVia", r.site(pos), r.expr(f.X))
			out.Rparen = c.Rparen
			return out
		}
		if fn.Name() == "Run" && isTRunSig(sig) {
			// x.Run(name, f) through an interface a *testing.T satisfies
			// (testify's suite runner): the hook decides by the dynamic
			// type, so a T's subtests run under control.
			r.args(c)
			out := r.hook(pos, "TRunVia", append([]ast.Expr{r.site(pos), r.expr(f.X)}, c.Args...)...)
			out.Rparen = c.Rparen
			return out
		}
		if fn.Pkg().Path() == "testing" && fn.Name() == "Name" && sig.Params().Len() == 0 {
			// tb.Name() with tb a testing.TB: the name go test would give
			out := r.hook(pos, "TName", r.expr(f.X))
			out.Rparen = c.Rparen
			return out
		}
		if fn.Name() == "Name" && fn.Pkg() != nil && fn.Pkg().Path() != "testing" && isNameSig(sig) {
			// x.Name() through an interface of the program's that a
			// *testing.T may satisfy (testify's failure messages, a
			// snapshot library naming its files by test): the hook
			// decides by the dynamic type.
			out := r.hook(pos, "TNameAny", r.expr(f.X))
			out.Rparen = c.Rparen
			return out
		}
		if h, ok := lateHooks[fn.Name()]; ok && fn.Pkg().Path() == "testing" && r.lateArgsOK(c, fn.Name()) {
			// tb.Log(...) with tb a testing.TB
			return r.lateHook(c, pos, h, r.expr(f.X))
		}
		if h, ok := lateHooks[fn.Name()]; ok && fn.Pkg().Path() != "testing" && r.tbMethod(fn) && r.lateArgsOK(c, fn.Name()) {
			// x.Logf(...) with x an interface of the user's that has
			// testing.TB's method: rt.TLogfAny looks whether x is a T
			return r.lateHook(c, pos, h+"Any", r.expr(f.X))
		}
		if fn.Pkg().Path() == "context" && fn.Name() == "Done" && sig.Params().Len() == 0 {
			// ctx.Done() with ctx a context.Context: a real deadline
			// (a standard library's timer) becomes one of the clock's
			out := r.hook(pos, "CtxDone", r.expr(f.X))
			out.Rparen = c.Rparen
			return out
		}
		if fn.Pkg().Path() == "testing" && fn.Name() == "Context" && sig.Params().Len() == 0 {
			// tb.Context() with tb a testing.TB
			out := r.hook(pos, "TContext", r.site(pos), r.expr(f.X))
			out.Rparen = c.Rparen
			return out
		}
		return nil
	}
	if sig.Recv() == nil {
		return nil
	}
	if h := deadlineHook(fn.Name(), sig); h != "" {
		// conn.SetDeadline(t) on a concrete type (*net.TCPConn, *os.File,
		// a type embedding one): as through an interface, the hook looks
		// at the dynamic type. x must satisfy the hook's interface as it
		// is; an addressable value whose pointer has the method is left
		// alone (rare: connections are used through pointers).
		if xt := r.info.TypeOf(f.X); xt != nil && types.NewMethodSet(xt).Lookup(fn.Pkg(), fn.Name()) != nil {
			return r.deadlineCall(c, f, h)
		}
	}
	pkg, typ := namedIn(deref(sig.Recv().Type()))
	if pkg == "reflect" && typ == "Value" {
		switch fn.Name() {
		case "Send", "Recv", "TrySend", "TryRecv", "Close":
			// v.Send(x) => rt.ReflectSend(site, v, x)
			if r.tupleArg(c) > 0 {
				r.note(pos, "reflect.Value.%s with a multi-value argument is not controlled", fn.Name())
				return nil
			}
			x := r.expr(f.X)
			r.args(c)
			out := r.hook(pos, "Reflect"+fn.Name(), append([]ast.Expr{r.site(pos), x}, c.Args...)...)
			out.Rparen = c.Rparen
			return out
		}
		return nil
	}
	key := pkg + "." + typ + "." + fn.Name()
	if key == "testing.common.Name" {
		// t.Name(): the name go test would give, without Period's driver
		// test and schedule (the subprocess idiom re-runs -test.run=t.Name()).
		out := r.hook(pos, "TName", r.expr(f.X))
		out.Rparen = c.Rparen
		return out
	}
	if h, ok := lateHooks[fn.Name()]; ok && key == "testing.common."+fn.Name() && r.lateArgsOK(c, fn.Name()) {
		// t.Log(...) and the like on a *testing.T, B or F: the hook takes t
		// itself (a testing.TB, compared with the run's tests). Through a
		// user type embedding one, the call stays as it is.
		if p, _ := namedIn(deref(r.info.TypeOf(f.X))); p != "testing" || !isPointer(r.info.TypeOf(f.X)) {
			return nil
		}
		return r.lateHook(c, pos, h, r.expr(f.X))
	}
	if key == "testing.common.Cleanup" || key == "testing.common.Context" {
		// t.Cleanup(f) and t.Context(), promoted from testing's unexported
		// common: the hook takes t itself (a testing.TB).
		x := r.expr(f.X)
		if !isPointer(r.info.TypeOf(f.X)) {
			if !r.addressable(f.X) {
				return nil
			}
			x = &ast.UnaryExpr{Op: token.AND, X: x}
		}
		var out *ast.CallExpr
		if fn.Name() == "Context" {
			out = r.hook(pos, "TContext", r.site(pos), x)
		} else {
			r.args(c)
			out = r.hook(pos, "TCleanup", r.site(pos), x, c.Args[0])
		}
		out.Rparen = c.Rparen
		return out
	}
	name, hooked := methodHooks[key]
	wrap := ""
	switch {
	case pkg == "sync/atomic":
		wrap = atomicHook(fn.Name())
	case pkg == "sync" && typ == "Map" && !hooked:
		wrap = "SyncMap"
	case !hooked:
		return nil
	}
	if pkg == "testing" && !isPointer(r.info.TypeOf(f.X)) && !r.addressable(f.X) {
		return nil
	}
	recv, ok := r.recvPtr(f.X, sel, pos)
	if !ok {
		return nil
	}
	r.args(c)
	if wrap != "" {
		if r.hookAfterArgs(c, 0, wrap, pos, recv, fn.Type().(*types.Signature).Params()) {
			// (&v).Store(rt.AtomicStoreAfter[any](site, &v, f()))
			f.X = paren(recv)
			return r.casDone(c, wrap)
		}
		// rt.Atomic(site, &v).Load(), rt.SyncMap(site, &m).Load(k)
		f.X = r.hook(f.X.Pos(), wrap, r.site(pos), recv)
		return r.casDone(c, wrap)
	}
	if name == "OnceDo" && r.inPackageVar(f.X) {
		name = "PackageOnceDo" // the goroutines it starts are the process's daemons
	}
	args := []ast.Expr{recv}
	if !noSite[name] {
		args = append([]ast.Expr{r.site(pos)}, args...)
	}
	out := r.hook(pos, name, append(args, c.Args...)...)
	out.Rparen = c.Rparen
	return out
}

// inPackageVar reports whether x is a package-level variable or a field
// of one (through fields only): one of its kind per process.
func (r *rewriter) inPackageVar(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		v, ok := r.info.Uses[x].(*types.Var)
		return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	case *ast.SelectorExpr:
		if sel, ok := r.info.Selections[x]; ok {
			return sel.Kind() == types.FieldVal && r.inPackageVar(x.X)
		}
		v, ok := r.info.Uses[x.Sel].(*types.Var) // pkg.Var
		return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	case *ast.StarExpr:
		return r.inPackageVar(x.X)
	}
	return false
}

// addressable reports whether &e is legal, conservatively.
func (r *rewriter) addressable(e ast.Expr) bool {
	tv, ok := r.info.Types[e]
	return ok && tv.Addressable()
}

// recvPtr builds a pointer to the receiver a promoted method works on:
// c.Lock() on a struct embedding sync.Mutex is rt.Lock(site, &c.Mutex).
func (r *rewriter) recvPtr(x ast.Expr, sel *types.Selection, pos token.Pos) (ast.Expr, bool) {
	idx := sel.Index()
	cur := r.info.TypeOf(x)
	// Check the path first: fields we cannot name leave the call as it is.
	t := cur
	var hidden *types.Var // the first field on the path this package cannot name
	for _, i := range idx[:len(idx)-1] {
		st, ok := under(deref(t)).(*types.Struct)
		if !ok {
			return nil, false
		}
		fld := st.Field(i)
		if hidden == nil && !fld.Exported() && fld.Pkg() != r.pkg {
			hidden = fld
		}
		t = fld.Type()
	}
	if hidden != nil {
		return r.hiddenRecv(x, cur, t, idx[:len(idx)-1], sel, hidden, pos)
	}
	var base ast.Expr
	if isPointer(cur) {
		base = paren(r.expr(x))
	} else {
		base = paren(r.path(x))
	}
	for _, i := range idx[:len(idx)-1] {
		fld := under(deref(cur)).(*types.Struct).Field(i)
		base = &ast.SelectorExpr{X: paren(base), Sel: ident(fld.Name(), x.End())}
		cur = fld.Type()
	}
	if isPointer(cur) {
		return base, true
	}
	if p, ok := base.(*ast.ParenExpr); ok {
		base = p.X
	}
	if s, ok := base.(*ast.StarExpr); ok {
		return s.X, true
	}
	return &ast.UnaryExpr{OpPos: x.Pos(), Op: token.AND, X: base}, true
}

// hiddenRecv builds the receiver of a method promoted through a field the
// package cannot name (h.Lock() where h's type embeds another package's
// unexported struct that embeds sync.Mutex): rt.Embedded walks the field
// indices at run time, so the lock is still the model's, shared with the
// other package's own h.Lock() calls. last is the type of the path's last
// field (the receiver or a pointer to it).
func (r *rewriter) hiddenRecv(x ast.Expr, cur, last types.Type, path []int, sel *types.Selection, hidden *types.Var, pos token.Pos) (ast.Expr, bool) {
	named, ok := types.Unalias(deref(last)).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || !named.Obj().Exported() || named.TypeArgs().Len() > 0 {
		r.note(pos, "method %s reached through unexported field %s is not controlled", sel.Obj().Name(), hidden.Name())
		return nil, false
	}
	var base ast.Expr
	switch {
	case isPointer(cur):
		base = r.expr(x)
	case r.addressable(x):
		base = &ast.UnaryExpr{OpPos: x.Pos(), Op: token.AND, X: r.path(x)}
	default:
		base = r.expr(x) // a value whose path goes through an embedded pointer
	}
	args := []ast.Expr{base}
	for _, i := range path {
		args = append(args, &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: strconv.Itoa(i)})
	}
	call := r.hook(pos, "Embedded", args...)
	call.Fun = &ast.IndexExpr{X: call.Fun, Lbrack: pos, Index: r.typeExpr(named, pos), Rbrack: pos}
	return call, true
}

// ifaceValueHook is the hook of method fn of interface type t used as a
// value, or "".
func ifaceValueHook(fn *types.Func, t types.Type) string {
	sig := fn.Type().(*types.Signature)
	switch {
	case (fn.Name() == "Lock" || fn.Name() == "Unlock") && sig.Params().Len() == 0 && sig.Results().Len() == 0 && isLocker(t):
		return "Locker" + fn.Name()
	case (fn.Name() == "RLock" || fn.Name() == "RUnlock") && sig.Params().Len() == 0 && sig.Results().Len() == 0:
		return "Locker" + fn.Name()
	default:
		return timerIfaceHook(fn.Name(), sig)
	}
}

// viaEmbeddedIface returns x.F1...Fn.m for x.m when m is the method of an
// interface that x's type embeds (through fields F1...Fn), so that the
// hooks of calls through an interface (a sync.Locker's Lock, a
// testing.TB's Cleanup) apply; nil otherwise, or when a field on the path
// cannot be named here. The selectors made are marked explicit: r.selector
// rewrites their operand and nothing else.
func (r *rewriter) viaEmbeddedIface(f *ast.SelectorExpr, sel *types.Selection) *ast.SelectorExpr {
	idx := sel.Index()
	if len(idx) < 2 {
		return nil
	}
	var path []*types.Var
	t := r.info.TypeOf(f.X)
	for _, i := range idx[:len(idx)-1] {
		st, ok := under(deref(t)).(*types.Struct)
		if !ok {
			return nil
		}
		fld := st.Field(i)
		if !fld.Exported() && fld.Pkg() != r.pkg {
			return nil
		}
		path, t = append(path, fld), fld.Type()
	}
	if !types.IsInterface(t) {
		return nil
	}
	if r.explicit == nil {
		r.explicit = map[*ast.SelectorExpr]bool{}
	}
	var x ast.Expr = f.X
	for _, fld := range path {
		e := &ast.SelectorExpr{X: x, Sel: ident(fld.Name(), f.Sel.Pos())}
		r.info.Types[e] = types.TypeAndValue{Type: fld.Type()}
		r.explicit[e] = true
		x = e
	}
	return &ast.SelectorExpr{X: x, Sel: f.Sel}
}

// isLocker reports whether an interface type has Lock() and Unlock().
func isLocker(t types.Type) bool {
	ms := types.NewMethodSet(t)
	for _, name := range []string{"Lock", "Unlock"} {
		s := ms.Lookup(nil, name)
		if s == nil {
			return false
		}
		sig := s.Obj().Type().(*types.Signature)
		if sig.Params().Len() != 0 || sig.Results().Len() != 0 {
			return false
		}
	}
	return true
}

// funcValue rewrites a package function used as a value (not called).
func (r *rewriter) funcValue(x *ast.SelectorExpr, fn *types.Func) ast.Expr {
	key := fn.Pkg().Path() + "." + fn.Name()
	switch key {
	case "time.Now", "time.Since", "time.Until":
		return r.rtSelChanged(x.Pos(), fn.Name())
	}
	if site, ok := timeFuncs[key]; ok && site {
		// time.After kept in a field to be replaced in tests (suture's
		// getAfterChan), os.Exit (kingpin's terminate): a closure that
		// calls the hook, as a call would.
		return r.hookLit(x.Pos(), hookName(fn), nil, fn.Type().(*types.Signature))
	}
	if _, ok := timeFuncs[key]; ok || fn.Pkg().Path() == "sync/atomic" {
		r.note(x.Pos(), "%s used as a value is not controlled", key)
	}
	return x
}

func (r *rewriter) rtSelChanged(pos token.Pos, name string) ast.Expr {
	r.changed = true
	return r.rtSel(pos, name)
}

// methodValue rewrites x.m used as a value: hooked methods become closures
// over the receiver evaluated now, like the method value itself.
func (r *rewriter) methodValue(x *ast.SelectorExpr, sel *types.Selection) ast.Expr {
	fn, _ := sel.Obj().(*types.Func)
	if fn != nil && types.IsInterface(r.info.TypeOf(x.X)) {
		// l.Unlock as a value with l a sync.Locker (miekg/dns's
		// once.Do(l.Unlock)), t.Stop with t a timer interface: the real
		// method of a lock or timer the model owns must not run.
		if hook := ifaceValueHook(fn, r.info.TypeOf(x.X)); hook != "" {
			sig := fn.Type().(*types.Signature)
			var iface *ast.InterfaceType
			if hook == "LockerLock" || hook == "LockerUnlock" {
				iface = r.ifaceType(x.Pos(), "Lock", "Unlock")
			} else if strings.HasPrefix(hook, "Locker") {
				iface = r.ifaceType(x.Pos(), fn.Name())
			} else {
				iface = &ast.InterfaceType{Interface: x.Pos(), Methods: &ast.FieldList{Opening: x.Pos(), Closing: x.Pos(), List: []*ast.Field{
					{Names: []*ast.Ident{ident(fn.Name(), x.Pos())}, Type: r.typeExpr(sig, x.Pos())}}}}
			}
			return r.boundHookAs(x.Pos(), hook, r.expr(x.X), iface, sig)
		}
	}
	if fn != nil && !types.IsInterface(r.info.TypeOf(x.X)) {
		sig := fn.Type().(*types.Signature)
		pkg, typ := namedIn(deref(sig.Recv().Type()))
		key := pkg + "." + typ + "." + fn.Name()
		if name, ok := methodHooks[key]; ok && (pkg == "sync" || pkg == "time") {
			// timer.Stop as a value (x/time/rate's Wait returns it): the
			// real Stop of a virtual timer panics.
			if recv, ok := r.recvPtr(x.X, sel, x.Pos()); ok {
				return r.boundHook(x.Pos(), name, recv, sig)
			}
			return x
		}
		if pkg == "sync" || pkg == "sync/atomic" || pkg == "time" {
			if _, ok := methodHooks[key]; ok || pkg != "time" {
				r.note(x.Pos(), "method value %s is not controlled", key)
			}
		}
		if pkg == "reflect" && typ == "Value" {
			switch fn.Name() {
			case "Send", "Recv", "TrySend", "TryRecv", "Close":
				r.note(x.Pos(), "method value %s is not controlled", key)
			}
		}
	}
	x.X = r.receiver(x.X, sel)
	return x
}

// boundHook builds func(p P) func(params) results { return func(params) results { return rt.H(site, p, params...) } }(recv),
// where P is named through a private import of sync.
func (r *rewriter) boundHook(pos token.Pos, name string, recv ast.Expr, sig *types.Signature) ast.Expr {
	return r.boundHookAs(pos, name, recv, r.typeExpr(sig.Recv().Type(), pos), sig)
}

// ifaceType spells interface{ M1(); M2() } for methods without parameters
// or results.
func (r *rewriter) ifaceType(pos token.Pos, names ...string) *ast.InterfaceType {
	it := &ast.InterfaceType{Interface: pos, Methods: &ast.FieldList{Opening: pos, Closing: pos}}
	for _, n := range names {
		it.Methods.List = append(it.Methods.List, &ast.Field{Names: []*ast.Ident{ident(n, pos)}, Type: &ast.FuncType{Func: token.NoPos, Params: &ast.FieldList{}}})
	}
	return it
}

// boundHookAs is boundHook with P spelled by the caller.
func (r *rewriter) boundHookAs(pos token.Pos, name string, recv ast.Expr, recvType ast.Expr, sig *types.Signature) ast.Expr {
	p := r.tmp(pos)
	inner := r.hookLit(pos, name, []ast.Expr{p}, sig)
	outerType := &ast.FuncType{Func: pos, Params: &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{p}, Type: recvType}}},
		Results: &ast.FieldList{List: []*ast.Field{{Type: inner.Type}}}}
	outer := &ast.FuncLit{Type: outerType, Body: block(pos, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{inner}})}
	return &ast.CallExpr{Fun: outer, Lparen: pos, Args: []ast.Expr{recv}, Rparen: pos}
}

// hookLit builds func(a0 T0, ...) R { [return] rt.H(site, fixed..., a0, ...) }
// for a method signature whose parameter types are predeclared or func().
func (r *rewriter) hookLit(pos token.Pos, name string, fixed []ast.Expr, sig *types.Signature) *ast.FuncLit {
	ft := &ast.FuncType{Func: pos, Params: &ast.FieldList{}}
	args := append([]ast.Expr{}, fixed...)
	if !noSite[name] {
		args = append([]ast.Expr{r.site(pos)}, args...)
	}
	for i := 0; i < sig.Params().Len(); i++ {
		a := r.tmp(pos)
		ft.Params.List = append(ft.Params.List, &ast.Field{Names: []*ast.Ident{a}, Type: r.typeExpr(sig.Params().At(i).Type(), pos)})
		args = append(args, a)
	}
	call := r.hook(pos, name, args...)
	var body ast.Stmt = &ast.ExprStmt{X: call}
	if sig.Results().Len() > 0 {
		ft.Results = &ast.FieldList{}
		for i := 0; i < sig.Results().Len(); i++ {
			ft.Results.List = append(ft.Results.List, &ast.Field{Type: r.typeExpr(sig.Results().At(i).Type(), pos)})
		}
		body = &ast.ReturnStmt{Return: pos, Results: []ast.Expr{call}}
	}
	return &ast.FuncLit{Type: ft, Body: block(pos, body)}
}

// typeExpr spells the types that occur in the sync API (pointers, named
// types, predeclared types, funcs), qualifying packages through private
// imports.
func (r *rewriter) typeExpr(t types.Type, pos token.Pos) ast.Expr {
	switch t := types.Unalias(t).(type) {
	case *types.Pointer:
		return &ast.StarExpr{Star: pos, X: r.typeExpr(t.Elem(), pos)}
	case *types.Basic:
		return ident(t.Name(), pos)
	case *types.Named:
		if t.Obj().Pkg() == nil {
			return ident(t.Obj().Name(), pos) // error
		}
		return &ast.SelectorExpr{X: ident(r.stdName(t.Obj().Pkg().Path()), pos), Sel: ident(t.Obj().Name(), pos)}
	case *types.Chan:
		dir := map[types.ChanDir]ast.ChanDir{types.SendRecv: ast.SEND | ast.RECV, types.SendOnly: ast.SEND, types.RecvOnly: ast.RECV}[t.Dir()]
		return &ast.ChanType{Begin: pos, Arrow: pos, Dir: dir, Value: r.typeExpr(t.Elem(), pos)}
	case *types.Signature:
		ft := &ast.FuncType{Func: pos, Params: &ast.FieldList{}}
		for i := 0; i < t.Params().Len(); i++ {
			ft.Params.List = append(ft.Params.List, &ast.Field{Type: r.typeExpr(t.Params().At(i).Type(), pos)})
		}
		if t.Results().Len() > 0 {
			ft.Results = &ast.FieldList{}
			for i := 0; i < t.Results().Len(); i++ {
				ft.Results.List = append(ft.Results.List, &ast.Field{Type: r.typeExpr(t.Results().At(i).Type(), pos)})
			}
		}
		return ft
	case *types.Interface:
		if t.Empty() {
			// any (sync.Pool.Get, Put), spelled so that any file version takes it
			return &ast.InterfaceType{Interface: pos, Methods: &ast.FieldList{Opening: pos, Closing: pos}}
		}
	}
	panic("instrument: cannot spell type " + t.String())
}

// methodExpr rewrites (*sync.Mutex).Lock into an equivalent func literal.
func (r *rewriter) methodExpr(x *ast.SelectorExpr, sel *types.Selection) ast.Expr {
	fn, _ := sel.Obj().(*types.Func)
	if fn == nil {
		return x
	}
	sig := fn.Type().(*types.Signature)
	pkg, typ := namedIn(deref(sig.Recv().Type()))
	key := pkg + "." + typ + "." + fn.Name()
	name, ok := methodHooks[key]
	if !ok || pkg != "sync" && pkg != "time" || !isPointer(r.info.TypeOf(x.X)) {
		if pkg == "sync" || pkg == "sync/atomic" {
			r.note(x.Pos(), "method expression %s is not controlled", key)
		}
		return x
	}
	// The literal's first parameter is the receiver.
	full := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(append([]*types.Var{types.NewParam(token.NoPos, nil, "", sig.Recv().Type())}, tupleVars(sig.Params())...)...),
		sig.Results(), false)
	return r.hookLit(x.Pos(), name, nil, full)
}

func tupleVars(t *types.Tuple) []*types.Var {
	var vs []*types.Var
	for i := 0; i < t.Len(); i++ {
		vs = append(vs, t.At(i))
	}
	return vs
}

func isUnsafePointer(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

// holdsChan reports channel types and pointers to them.
func holdsChan(t types.Type) bool {
	_, ok := under(deref(t)).(*types.Chan)
	return ok
}

// timerChan reports whether x is the C field of a time.Timer or
// time.Ticker (also promoted through an embedding struct).
func (r *rewriter) timerChan(x ast.Expr) bool {
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := r.info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return false
	}
	v, ok := s.Obj().(*types.Var)
	return ok && v.IsField() && v.Name() == "C" && v.Pkg() != nil && v.Pkg().Path() == "time"
}
