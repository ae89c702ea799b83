//line in.go:1
package p

import "testing"
//line in.go:3
import _prt "github.com/period-dev/period/rt"

type env struct{ t *testing.T }

func helper(tb testing.TB, stop func()) {
	tb.Helper()
	_prt.TCleanup("in.go:9", tb, stop)
}

func TestX(t *testing.T) {
	var tv testing.T
	e := env{t}
	_prt.TCleanup("in.go:15", t, func() {})
	_prt.TCleanup("in.go:16", e.t, func() {})
	_prt.TCleanup("in.go:17", &tv, func() {})
	helper(t, func() {})
	_prt.TRun("in.go:19", t, "sub", func(t *testing.T) {
		_prt.TParallel("in.go:20", t)
		t.Log("x")
	})
}

func TestContext(t *testing.T) {
	var tb testing.TB = t
	ctx := _prt.TContext("in.go:27", t)
	_prt.Recv("in.go:28", ctx.Done())
	_ = _prt.TContext("in.go:29", tb)
}
