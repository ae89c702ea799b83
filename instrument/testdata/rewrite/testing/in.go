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

type suite struct{ *testing.T }

// Late logs and failures panic as under go test: rt.TLog and the like.
func TestLate(t *testing.T) {
	var tb testing.TB = t
	args := []any{"a", 1}
	s := suite{t}
	go func() {
		t.Log("x", 1)
		t.Logf("%d", 2)
		t.Error(args...)
		tb.Errorf("%v", 3)
		s.Fatal("s")
		tb.Skip()
		t.Fail()
		tb.FailNow()
	}()
}
