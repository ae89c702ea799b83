package p

import "testing"

type env struct{ t *testing.T }

func helper(tb testing.TB, stop func()) {
	tb.Helper()
	tb.Cleanup(stop)
}

func TestX(t *testing.T) {
	var tv testing.T
	e := env{t}
	t.Cleanup(func() {})
	e.t.Cleanup(func() {})
	tv.Cleanup(func() {})
	helper(t, func() {})
	t.Run("sub", func(t *testing.T) {
		t.Parallel()
		t.Log("x")
	})
}

func TestContext(t *testing.T) {
	var tb testing.TB = t
	ctx := t.Context()
	<-ctx.Done()
	_ = tb.Context()
}
