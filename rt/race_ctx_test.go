//go:build go1.21

package rt

import (
	"context"
	"testing"
	"time"
)

func init() {
	// A deadline that fires (inside the engine) cancels virtual and
	// standard children; their callbacks call Err and Cause on the parent.
	raceTwins["ctx-deadline-children"] = struct {
		racy bool
		body func(t *testing.T)
	}{false, func(t *testing.T) {
		x := new(int)
		*W("write", x) = 1
		parent, cancel := WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		ctx, stop := WithCancel(parent)
		defer stop()
		std, stop2 := context.WithCancelCause(ctx)
		defer stop2(nil)
		done := make(chan bool)
		Go("go", func() {
			Recv("wait", std.Done())
			_ = *R("read", x)
			_ = std.Err()
			Send("done", done, true)
		})
		Recv("join", done)
	}}
	programs["race-ctx-deadline-children"] = raceTwins["ctx-deadline-children"].body
}
