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

func init() {
	// The test goroutine, measuring its own allocations (AllocsPerRun:
	// plain mode), receives values a controlled sender buffered; then a
	// value sent after a write reaches another goroutine, which reads.
	// The clocks of the buffered values must move with the plain
	// receives, or that goroutine acquires a clock from before the write.
	raceTwins["plain-receiver-buffered"] = struct {
		racy bool
		body func(t *testing.T)
	}{false, func(t *testing.T) {
		x := new(int)
		ch := make(chan int, 16)
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
		AllocsPerRun(10, func() { Recv("plain", ch) }) // 12 receives
		Send("start", start, true)
		*W("write", x) = 1
		Send("send", ch, 1)
		Recv("join", done)
	}}
	programs["race-plain-receiver-buffered"] = raceTwins["plain-receiver-buffered"].body
}

func init() {
	// The same, the plain receives made by a select without default (as
	// generated code has it): its case names its index, so the engine
	// knows which channel's clocks to move.
	raceTwins["plain-select-receiver-buffered"] = struct {
		racy bool
		body func(t *testing.T)
	}{false, func(t *testing.T) {
		x := new(int)
		ch, other := make(chan int, 16), make(chan int)
		start, done := make(chan bool), make(chan bool)
		Go("go", func() {
			Recv("start", start)
			Recv("first", ch)
			Recv("second", ch)
			_ = *R("read", x)
			Send("done", done, true)
		})
		for i := 0; i < 13; i++ {
			Send("fill", ch, i)
		}
		AllocsPerRun(10, func() {
			sel := Select("sel", false, RecvCase(ch), RecvCase(other))
			select {
			case <-RecvIf(sel, 0, ch):
				SelectCaseDone(sel, 0)
			case <-RecvIf(sel, 1, other):
				SelectCaseDone(sel, 1)
			}
		})
		Send("start", start, true)
		*W("write", x) = 1
		Send("send", ch, 1)
		Recv("join", done)
	}}
	programs["race-plain-select-receiver-buffered"] = raceTwins["plain-select-receiver-buffered"].body
}
