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

// plainReceiver is a race-free program: the test goroutine, measuring its
// own allocations (AllocsPerRun: plain mode), receives with recv values a
// controlled sender buffered; then a value sent after a write reaches
// another goroutine, which reads. The clocks of the buffered values must
// move with the plain receives, or that goroutine acquires a clock from
// before the write.
func plainReceiver(recv func(ch, other chan int)) func(t *testing.T) {
	return func(t *testing.T) {
		x := new(int)
		ch, other := make(chan int, 16), make(chan int)
		start, done := make(chan bool), make(chan bool)
		Go("go", func() {
			Recv("start", start) // ordered before the write, not after
			Recv("first", ch)
			Recv("second", ch)
			_ = *R("read", x)
			Send("done", done, true)
		})
		for i := 0; i < 13; i++ {
			Send("fill", ch, i)
		}
		AllocsPerRun(11, func() { recv(ch, other) }) // 12 receives: runs+1, as go test calls f
		Send("start", start, true)
		*W("write", x) = 1
		Send("send", ch, 1)
		Recv("join", done)
	}
}

func init() {
	raceTwins["plain-receiver-buffered"] = struct {
		racy bool
		body func(t *testing.T)
	}{false, plainReceiver(func(ch, _ chan int) { Recv("plain", ch) })}
	// The receives made by a select without default, as generated code
	// has it: its case names its index, so the engine knows which
	// channel's clocks to move.
	raceTwins["plain-select-receiver-buffered"] = struct {
		racy bool
		body func(t *testing.T)
	}{false, plainReceiver(func(ch, other chan int) {
		sel := Select("sel", false, RecvCase(ch), RecvCase(other))
		select {
		case <-RecvIf(sel, 0, ch):
			SelectCaseDone(sel, 0)
		case <-RecvIf(sel, 1, other):
			SelectCaseDone(sel, 1)
		}
	})}
	for _, name := range []string{"plain-receiver-buffered", "plain-select-receiver-buffered"} {
		programs["race-"+name] = raceTwins[name].body
	}
}
