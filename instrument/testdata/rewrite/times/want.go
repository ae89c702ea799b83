//line in.go:1
package times

import (
	"context"
	_ "os"
	_ "runtime"
	"time"
)
//line in.go:8
import _prt "github.com/period-dev/period/rt"

func Times(ctx context.Context) time.Duration {
	start := _prt.Now()
	_prt.Sleep("in.go:12", time.Millisecond)
	_prt.Recv("in.go:13", _prt.After("in.go:13", time.Second))
	t := _prt.NewTimer("in.go:14", time.Second)
	if !_prt.TimerStop("in.go:15", t) {
		_prt.TimerReset("in.go:16", t, time.Second)
	}
	tk := _prt.NewTicker("in.go:18", time.Second)
	_prt.TickerReset("in.go:19", tk, 2*time.Second)
	_prt.TickerStop("in.go:20", tk)
	_ = _prt.Tick("in.go:21", time.Second)
	_prt.AfterFunc("in.go:22", time.Second, func() {})
	c1, cancel := _prt.WithTimeout(ctx, time.Second)
	defer cancel()
	_, cancel2 := _prt.WithDeadline(c1, _prt.Now().Add(time.Second))
	cancel2()
	_prt.Gosched("in.go:27")
	now := _prt.Now
	_ = now()
	_ = _prt.Until(start)
	return _prt.Since(start)
}

func Quit(code int) {
	_prt.Exit("in.go:35", code)
}
