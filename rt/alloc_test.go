//go:build go1.21

package rt

import (
	"sync"
	"sync/atomic"
	"testing"
)

// The hot path allocates nothing per key point: a long schedule's garbage
// must not grow with its steps. Measured inside a controlled run (the
// engine's own bookkeeping, such as the record of events, grows by doubling
// and is amortized below one allocation per key point).

// noVerify turns off verifyReady, which allocates, for the test.
func noVerify(t *testing.T) {
	old := verifyReady
	verifyReady = false
	t.Cleanup(func() { verifyReady = old })
}

func TestAllocsPerKeyPointLock(t *testing.T) {
	noVerify(t)
	var mu sync.Mutex
	var got float64
	runControlledWith(Config{NoRace: true}, &stay{}, func() {
		for i := 0; i < 1000; i++ { // warm the engine's buffers
			Lock("lock", &mu)
			Unlock("unlock", &mu)
		}
		got = testing.AllocsPerRun(1000, func() {
			Lock("lock", &mu)
			Unlock("unlock", &mu)
		})
	})
	if got != 0 {
		t.Errorf("a Lock/Unlock pair under control allocates %v times, want 0", got)
	}
}

// The first touch of an address (a cache filling a fresh buffer) costs no
// allocation each, with race detection on and two goroutines in the run:
// code that counts its own allocations (freecache's tests of its
// benchmarks, testing.AllocsPerRun) sees almost none of Period's.
func TestAllocsPerFirstTouch(t *testing.T) {
	noVerify(t)
	buf := make([]int, 4096)
	var got float64
	runControlledWith(Config{}, &stay{}, func() {
		done := make(chan bool)
		Go("other", func() { *W("other", &buf[0]) = 1; Send("done", done, true) })
		Recv("done", done)
		i := 1
		got = testing.AllocsPerRun(1000, func() {
			*W("fill", &buf[i]) = i
			_ = *R("check", &buf[i])
			i++
		})
	})
	if got != 0 {
		t.Errorf("a first write and read of an address under control allocate %v times, want 0", got)
	}
}

// An atomic stored again and again, with race detection on and another
// goroutine in the run, allocates nothing per store: the variable's clock
// keeps its slice of entries from release to release (pion/ice's
// "does not allocate" test counted seven allocations a round trip).
func TestAllocsPerAtomicStore(t *testing.T) {
	noVerify(t)
	var flag atomic.Int32
	var got float64
	runControlledWith(Config{}, &stay{}, func() {
		done := make(chan bool)
		Go("other", func() { AtomicStore("other", &flag).Store(1); Send("done", done, true) })
		Recv("done", done)
		for i := 0; i < 1000; i++ {
			AtomicStore("store", &flag).Store(int32(i))
		}
		got = testing.AllocsPerRun(1000, func() {
			AtomicStore("store", &flag).Store(2)
			_ = AtomicLoad("load", &flag).Load()
		})
	})
	if got != 0 {
		t.Errorf("an atomic store and load under control allocate %v times, want 0", got)
	}
}

// A goroutine measuring its own allocations (AllocsPerRun: plain mode)
// that passes values through a buffered channel moves the channel's queue
// of clocks (plainChan) without allocating: the clocks' entries are
// recycled from value to value.
func TestAllocsPerPlainBufferedRoundTrip(t *testing.T) {
	noVerify(t)
	var got float64
	runControlledWith(Config{}, &stay{}, func() {
		ch := make(chan int, 4)
		done := make(chan bool)
		Go("other", func() { Send("other", ch, 1); Send("done", done, true) })
		Recv("done", done)
		Recv("drain", ch)
		got = AllocsPerRun(1000, func() {
			Send("send", ch, 1)
			Recv("recv", ch)
		})
	})
	if got != 0 {
		t.Errorf("a buffered send and receive in plain mode allocate %v times, want 0", got)
	}
}

// Two goroutines hand a value back and forth over unbuffered channels: every
// key point is a switch and a rendezvous.
func TestAllocsPerKeyPointHandoff(t *testing.T) {
	noVerify(t)
	var got float64
	runControlledWith(Config{NoRace: true}, &alternate{}, func() {
		ping, pong := make(chan int), make(chan int)
		Go("echo", func() {
			for {
				v, ok := Recv2("recv", ping)
				if !ok {
					return
				}
				Send("send", pong, v)
			}
		})
		round := func() {
			Send("ping", ping, 1)
			Recv("pong", pong)
		}
		for i := 0; i < 1000; i++ {
			round()
		}
		got = testing.AllocsPerRun(1000, round)
		Close("close", ping)
	})
	if got != 0 {
		t.Errorf("a channel round trip under control allocates %v times, want 0", got)
	}
}

// A run that starts goroutine after goroutine (a pool starting a worker per
// task) keeps clocks linear in their number: an exited goroutine's vector
// clock, as long as the number of goroutines before it, is dropped (the
// clocks of 100,000 tasks took 15 GB: alitto/pond/v2).
func TestExitedGoroutinesKeepNoClock(t *testing.T) {
	const n = 2000
	var mu sync.Mutex
	var wg sync.WaitGroup
	kept := 0
	runControlled(&stay{}, func() {
		for i := 0; i < n; i++ {
			WGAdd("add", &wg, 1)
			Go("go", func() {
				Lock("lock", &mu)
				Unlock("unlock", &mu)
				WGDone("done", &wg)
			})
			WGWait("wait", &wg)
		}
		eng.mu.Lock()
		for _, g := range eng.gs {
			kept += g.vc.entries()
		}
		eng.mu.Unlock()
	})
	if kept > 4*n {
		t.Errorf("the goroutines' clocks hold %d entries after %d goroutines ran one after another, want at most %d", kept, n, 4*n)
	}
}
