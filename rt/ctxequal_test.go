//go:build go1.21

package rt

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

func init() {
	// Two virtual contexts made alike and never asked for Done are
	// reflect.DeepEqual, as the context package's are (gomock's Eq matches
	// a context the test made with the one the code under test made); once
	// Done is asked they differ, as theirs do. Cancellation and
	// context.Cause still work whether Done was asked before or after.
	programs["ctx-deepequal"] = func(t *testing.T) {
		a, cancelA := WithCancel(context.Background())
		b, cancelB := WithCancel(context.Background())
		if !reflect.DeepEqual(a, b) {
			t.Errorf("fresh contexts differ: %#v %#v", a, b)
		}
		Send("step", make(chan int, 1), 1)
		da := a.Done()
		if reflect.DeepEqual(a, b) {
			t.Errorf("contexts equal after one's Done was asked")
		}
		cancelA()
		Recv("a done", da)
		cause := errors.New("stop")
		c, cancelC := WithCancelCause(context.Background())
		cancelC(cause)
		Recv("c done after cancel", c.Done()) // made closed
		if context.Cause(c) != cause || c.Err() != context.Canceled {
			t.Errorf("cause %v, err %v", context.Cause(c), c.Err())
		}
		if context.Cause(b) != nil {
			t.Errorf("cause of a live context: %v", context.Cause(b))
		}
		cancelB()
		if context.Cause(b) != context.Canceled {
			t.Errorf("cause %v after cancel", context.Cause(b))
		}
	}

	// A Done channel made after the cancellation (the first Done call
	// comes late) still orders the canceller's past before the receiver.
	raceTwins["ctx-done-made-late"] = struct {
		racy bool
		body func(t *testing.T)
	}{false, func(t *testing.T) {
		x := new(int)
		ctx, cancel := WithCancel(context.Background())
		done := make(chan bool)
		Go("go", func() {
			Recv("wait", ctx.Done())
			_ = *R("read", x)
			Send("done", done, true)
		})
		*W("write", x) = 1
		cancel()
		Recv("join", done)
	}}
	programs["race-ctx-done-made-late"] = raceTwins["ctx-done-made-late"].body
}

func TestVirtualContextsCompareAsTheContextPackagesDo(t *testing.T) {
	s := runChild(t, "ctx-deepequal", Config{Budget: 20, Seed: 1})
	if len(s.Bugs) != 0 || s.Schedules == 0 {
		t.Fatalf("want clean schedules: %+v", s)
	}
}
