//go:build go1.21

package rt

import (
	"sync"
	"sync/atomic"
	"time"
)

// Real tickers of goroutines that predate the process's first run (a
// package's metrics flusher, a cache's janitor: started by init or
// TestMain) on code Period instruments, and their real sleeps. A run's
// clock jumps when every controlled goroutine waits for a timer, and such
// a goroutine works at its real ticks: a test that polls for the janitor's
// work with virtual sleeps gave up after three virtual seconds before its
// first 20 ms tick, in every schedule of a fresh process too. While one of
// them ticks at least every bgTickMax, or sleeps that long at most, runs
// keep the clock at real pace as they do for the program's goroutines
// outside control that ran in them (engine.bgLive); a slower one (klog's
// five-second flush) leaves the clock free.

// bgTickMax is the longest period of a ticker that paces the clock.
const bgTickMax = time.Second

var bgTickers = struct {
	mu sync.Mutex
	m  map[any]bool
}{m: map[any]bool{}}

// bgPacers counts the tickers in bgTickers and the sleeps under way.
var bgPacers atomic.Int32

// predatesRuns tells whether the calling goroutine was started before the
// process's first run (goids only grow), or no run has started yet.
func predatesRuns() bool {
	f := eng.firstRunGoid.Load()
	return f == 0 || goid() < f
}

// bgTickerArmed records ticker key (a *time.Ticker, or time.Tick's channel)
// of period d, made or reset, or forgets it if d is too long to pace the
// clock.
func bgTickerArmed(key any, d time.Duration) {
	if d > bgTickMax {
		bgTickerStopped(key)
		return
	}
	if predatesRuns() {
		bgPacing(key)
	}
}

// bgTickerStopped forgets ticker key.
func bgTickerStopped(key any) {
	bgTickers.mu.Lock()
	if bgTickers.m[key] {
		delete(bgTickers.m, key)
		bgPacers.Add(-1)
	}
	bgTickers.mu.Unlock()
}

// A real time.AfterFunc armed outside control for a second or less paces
// the clock until its function has run: a refresher that an init started
// re-arms itself from its own function (in a new goroutine each time, so
// the function's goroutine cannot tell that it predates the runs).
// bgAfters maps each such timer to its entry in bgTickers.
var bgAfters sync.Map // *time.Timer -> *bgAfter

type bgAfter struct {
	key   *byte
	t     atomic.Pointer[time.Timer] // set once AfterFunc returned
	fired atomic.Bool
}

// bgAfterFunc is time.AfterFunc(d, f) outside control.
func bgAfterFunc(d time.Duration, f func()) *time.Timer {
	if d > bgTickMax {
		return time.AfterFunc(d, f)
	}
	a := &bgAfter{key: new(byte)}
	bgPacing(a.key)
	t := time.AfterFunc(d, func() {
		bgTickerStopped(a.key)
		a.fired.Store(true)
		if t := a.t.Load(); t != nil {
			bgAfters.Delete(t) // a Reset after this one no longer paces
		}
		f()
	})
	a.t.Store(t)
	bgAfters.Store(t, a)
	if a.fired.Load() {
		bgAfters.Delete(t) // it ran before it was stored: no entry is left behind
	}
	return t
}

// bgAfterStopped: timer t of bgAfterFunc is stopped (its function will not
// run, or has run).
func bgAfterStopped(t *time.Timer) {
	if a, ok := bgAfters.Load(t); ok {
		bgTickerStopped(a.(*bgAfter).key)
	}
}

// bgAfterReset: timer t of bgAfterFunc runs its function again after d.
func bgAfterReset(t *time.Timer, d time.Duration) {
	if a, ok := bgAfters.Load(t); ok && d <= bgTickMax {
		bgPacing(a.(*bgAfter).key)
	}
}

// bgPacing records key as pacing the clock.
func bgPacing(key any) {
	bgTickers.mu.Lock()
	if !bgTickers.m[key] {
		bgTickers.m[key] = true
		bgPacers.Add(1)
	}
	bgTickers.mu.Unlock()
}

// bgPaced tells whether the run's clock keeps to real pace for goroutines
// that predate the runs: one ran the program's code lately (bgLive, set
// as the run began), or one holds a fast ticker or sleeps now.
func (e *engine) bgPaced() bool { return e.bgLive || bgPacers.Load() > 0 }

// bgSleep is a real sleep of d outside control: one of a goroutine that
// predates the runs paces the clock while it lasts.
func bgSleep(d time.Duration) {
	if d > bgTickMax || !predatesRuns() {
		time.Sleep(d)
		return
	}
	bgPacers.Add(1)
	time.Sleep(d)
	bgPacers.Add(-1)
}
