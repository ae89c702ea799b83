// Package embeddedtimer wraps time's timers the way mock-clock libraries
// do (clockwork's realTimer): a struct embedding *time.Timer, used through
// an interface, so Stop and Reset are promoted methods called dynamically.
package embeddedtimer

import "time"

type Timer interface {
	Stop() bool
	Reset(d time.Duration) bool
}

type realTimer struct{ *time.Timer }

type valueTicker struct {
	time.Ticker
}

func AfterFunc(d time.Duration, f func()) Timer { return realTimer{time.AfterFunc(d, f)} }

func NewTimer(d time.Duration) (Timer, <-chan time.Time) {
	t := time.NewTimer(d)
	return realTimer{t}, t.C
}

type Stopper interface{ Stop() }

func NewTicker(d time.Duration) (Stopper, <-chan time.Time) {
	t := time.NewTicker(d)
	v := &valueTicker{}
	v.C = t.C
	t.Stop()
	return v, v.C
}
