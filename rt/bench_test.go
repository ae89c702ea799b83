//go:build go1.21

package rt

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/period-dev/period/strategy"
)

// alternate always picks a goroutine other than the last one, so that every
// key point is a switch between goroutines.
type alternate struct{ last strategy.GID }

func (s *alternate) Name() string { return "alternate" }
func (s *alternate) Begin() bool  { return true }
func (s *alternate) Next(en []strategy.Event) int {
	for i, e := range en {
		if e.G != s.last {
			s.last = e.G
			return i
		}
	}
	s.last = en[0].G
	return 0
}
func (s *alternate) Choose(strategy.Event, int) int { return 0 }
func (s *alternate) End(*strategy.Run)              {}

// stay always picks the goroutine that ran last: key points without switches.
type stay struct{ alternate }

func (s *stay) Next(en []strategy.Event) int {
	for i, e := range en {
		if e.G == s.last {
			return i
		}
	}
	s.last = en[0].G
	return 0
}

// runControlled runs body as one controlled run outside package testing's
// goroutines, as the period driver would.
func runControlled(st strategy.Strategy, body func()) { runControlledWith(Config{}, st, body) }

// runControlledWith is runControlled with cfg (e.g. race detection off).
func runControlledWith(cfg Config, st strategy.Strategy, body func()) {
	e := eng
	e.cfg = config{Config: cfg, maxSteps: 0, watchdog: time.Minute, hangAfter: time.Minute}
	e.strat = st
	e.replay = nil
	e.mu.Lock()
	e.resetRun(0)
	e.mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.run(nil, body)
	}()
	<-done
}

func pingPong(n int, point func()) func() {
	return func() {
		var wg sync.WaitGroup
		wg.Add(2)
		for g := 0; g < 2; g++ {
			Go("go", func() {
				for i := 0; i < n/2; i++ {
					point()
				}
				wg.Done()
			})
		}
		WGWait("wait", &wg)
	}
}

// BenchmarkSwitch measures one scheduling point that hands control to the
// other goroutine (ns/op = ns per switch).
func BenchmarkSwitch(b *testing.B) {
	runControlled(&alternate{}, pingPong(b.N, func() { Gosched("yield") }))
}

// BenchmarkPointNoSwitch measures a scheduling point where the same goroutine goes on.
func BenchmarkPointNoSwitch(b *testing.B) {
	runControlled(&stay{}, pingPong(b.N, func() { Gosched("yield") }))
}

// BenchmarkNativeGosched is the uncontrolled baseline: runtime.Gosched between two goroutines.
func BenchmarkNativeGosched(b *testing.B) {
	pingPong(b.N, runtime.Gosched)()
}
