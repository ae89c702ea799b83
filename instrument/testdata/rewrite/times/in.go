package times

import (
	"context"
	"net"
	"os"
	"runtime"
	"time"
)

func Times(ctx context.Context) time.Duration {
	start := time.Now()
	time.Sleep(time.Millisecond)
	<-time.After(time.Second)
	t := time.NewTimer(time.Second)
	if !t.Stop() {
		t.Reset(time.Second)
	}
	tk := time.NewTicker(time.Second)
	tk.Reset(2 * time.Second)
	tk.Stop()
	_ = time.Tick(time.Second)
	time.AfterFunc(time.Second, func() {})
	c1, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, cancel2 := context.WithDeadline(c1, time.Now().Add(time.Second))
	cancel2()
	runtime.Gosched()
	now := time.Now
	_ = now()
	_ = time.Until(start)
	return time.Since(start)
}

func Quit(code int) {
	os.Exit(code)
}

// timer is a library's interface over time.AfterFunc's timer.
type timer interface {
	Stop() bool
	Reset(time.Duration) bool
}

type ticker interface {
	Stop()
	Reset(d time.Duration)
}

// other has a Stop of another signature: left alone.
type other interface{ Stop() error }

func Through(t timer, tk ticker, o other) {
	if !t.Stop() {
		t.Reset(5)
	}
	defer tk.Stop()
	tk.Reset(time.Second)
	_ = o.Stop()
}

// Values: the methods bound now, called later.
func Values(t timer, l interface {
	Lock()
	Unlock()
}) (func() bool, func(time.Duration) bool, func()) {
	l.Lock()
	return t.Stop, t.Reset, l.Unlock
}

// Deadline: a deadline for a connection (the hook moves it to the real
// clock for the standard library's).
func Deadline(c net.Conn) error {
	return c.SetReadDeadline(time.Now().Add(time.Second))
}

// Clocks: the time functions kept as values to be replaced in tests.
type Clocks struct {
	after func(time.Duration) <-chan time.Time
	sleep func(time.Duration)
	later func(time.Duration, func()) *time.Timer
}

// RealClocks returns the real ones.
func RealClocks() Clocks {
	return Clocks{after: time.After, sleep: time.Sleep, later: time.AfterFunc}
}

// len and cap of a timer's channel: 0 under Go 1.23's synchronous timer
// channels, whatever the virtual timer buffers.
func TimerChanLen(t *time.Timer, tk *time.Ticker) int {
	c := make(chan time.Time, 1)
	return len(t.C) + cap(tk.C) + len(c)
}
