//go:build go1.21

package rt

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/period-dev/period/strategy"
)

// Scale benchmarks (issue 11): the cost of a key point must not grow with
// the number of goroutines that exist but wait. docs/scale.md has numbers
// and the commands.

var scaleSizes = []int{10, 100, 1000, 10000}

// idleAndBusy is a run with n goroutines: n-2 wait on a channel receive for
// the whole measured part, two lock and unlock a mutex in turns; b's timer
// covers only the busy part, about b.N key points.
func idleAndBusy(b *testing.B, n int) func() {
	return func() {
		stop := make(chan struct{})
		var parked, busy sync.WaitGroup
		var mu sync.Mutex
		WGAdd("add", &parked, n-2)
		for i := 0; i < n-2; i++ {
			Go("idle", func() {
				WGDone("parked", &parked)
				Recv("wait", stop)
			})
		}
		WGWait("all parked", &parked)
		b.ResetTimer()
		WGAdd("add", &busy, 2)
		for k := 0; k < 2; k++ {
			Go("busy", func() {
				for i := 0; i < (b.N+3)/4; i++ { // two key points per iteration, two goroutines
					Lock("lock", &mu)
					Unlock("unlock", &mu)
				}
				WGDone("busy done", &busy)
			})
		}
		WGWait("busy", &busy)
		b.StopTimer()
		Close("stop", stop)
	}
}

// BenchmarkKeyPoint: ns per key point (ns/op) while n-2 other goroutines
// exist and wait; the targets say it should not depend on n.
func BenchmarkKeyPoint(b *testing.B) {
	for _, n := range scaleSizes {
		b.Run(fmt.Sprintf("goroutines=%d", n), func(b *testing.B) {
			onOff(b, func(b *testing.B, race bool) {
				runControlledRace(&alternate{}, race, idleAndBusy(b, n))
			})
		})
	}
}

// mutexTest is the test of the issue: n goroutines each lock a mutex ten
// times. Outside a run the hooks perform the plain operations, so the same
// function is also its native baseline.
func mutexTest(n int) func() {
	return func() {
		var mu sync.Mutex
		var wg sync.WaitGroup
		count := 0
		WGAdd("add", &wg, n)
		for i := 0; i < n; i++ {
			Go("go", func() {
				for j := 0; j < 10; j++ {
					Lock("lock", &mu)
					count++
					Unlock("unlock", &mu)
				}
				WGDone("done", &wg)
			})
		}
		WGWait("wait", &wg)
		if count != 10*n {
			panic(fmt.Sprintf("count %d, want %d", count, 10*n))
		}
	}
}

// BenchmarkMutexSchedule: one schedule of mutexTest under the random
// strategy (race detection off) against a native run of the same function
// in the same loop; x-native is the ratio of the two.
func BenchmarkMutexSchedule(b *testing.B) {
	for _, n := range scaleSizes[:3] {
		b.Run(fmt.Sprintf("goroutines=%d", n), func(b *testing.B) { versusNative(b, mutexTest(n)) })
	}
}

// fanIn: n producers send three values each on their own channel, n
// forwarders copy them to one channel, the test goroutine takes them all.
func fanIn(n int) func() {
	return func() {
		out := make(chan int)
		var wg sync.WaitGroup
		WGAdd("add", &wg, n)
		for i := 0; i < n; i++ {
			in := make(chan int)
			Go("producer", func() {
				for v := 1; v <= 3; v++ {
					Send("produce", in, v)
				}
				Close("close in", in)
			})
			Go("forwarder", func() {
				for {
					v, ok := Recv2("forward in", in)
					if !ok {
						break
					}
					Send("forward out", out, v)
				}
				WGDone("done", &wg)
			})
		}
		Go("closer", func() {
			WGWait("wait", &wg)
			Close("close out", out)
		})
		sum := 0
		for {
			v, ok := Recv2("take", out)
			if !ok {
				break
			}
			sum += v
		}
		if sum != 6*n {
			panic(fmt.Sprintf("sum %d, want %d", sum, 6*n))
		}
	}
}

// BenchmarkFanInSchedule: fanIn under control against native, as
// BenchmarkMutexSchedule.
func BenchmarkFanInSchedule(b *testing.B) {
	for _, n := range scaleSizes[:3] {
		b.Run(fmt.Sprintf("goroutines=%d", 2*n+2), func(b *testing.B) { versusNative(b, fanIn(n)) })
	}
}

// versusNative runs f natively and under control (random strategy, race
// detection off) b.N times each, interleaved.
func versusNative(b *testing.B, f func()) {
	st, err := strategy.New("random", strategy.Options{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	var native, period time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		f()
		t1 := time.Now()
		st.Begin()
		runControlledWith(Config{NoRace: true}, st, f)
		native += t1.Sub(t0)
		period += time.Since(t1)
	}
	b.ReportMetric(float64(native.Nanoseconds())/float64(b.N), "native-ns/run")
	b.ReportMetric(float64(period.Nanoseconds())/float64(b.N), "period-ns/run")
	b.ReportMetric(float64(period)/float64(native), "x-native")
}

// BenchmarkSwitchVsHandoff: a controlled switch (Gosched handing control to
// the other goroutine) and a bare hand-off of a token between two goroutines
// over unbuffered channels, b.N of each in the same run; x-handoff is the
// ratio (ns/op counts both). With race detection on and off: an atomic add
// under race detection also joins and publishes vector clocks.
func BenchmarkSwitchVsHandoff(b *testing.B) {
	onOff(b, func(b *testing.B, race bool) { switchVsHandoff(b, Config{NoRace: !race}) })
}

func switchVsHandoff(b *testing.B, cfg Config) {
	// Each point is an atomic add: always ready and an effect, so the
	// engine neither parks the two as spinners nor lets virtual time
	// jump, as it does for a loop of bare Gosched calls (which made this
	// "switch" 35 ns, cheaper than the hand-off it is made of).
	var x int64
	body := pingPong(b.N, func() { atomic.AddInt64(Atomic("add", &x), 1) })
	// A first schedule of the same length, untimed: an exploration's
	// schedules after its first reuse the step log's memory, which the
	// first one faults in (about 120 ns a step on a 2-core machine).
	runControlledWith(cfg, &alternate{}, body)
	x = 0
	b.ResetTimer()
	t0 := time.Now()
	runControlledWith(cfg, &alternate{}, body)
	t1 := time.Now()
	if x != int64(b.N/2*2) {
		b.Fatalf("%d points, want %d", x, b.N/2*2)
	}
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v
		}
		close(pong)
	}()
	for i := 0; i < b.N/2; i++ { // two hand-offs per round trip
		ping <- i
		<-pong
	}
	close(ping)
	<-pong
	sw, ho := t1.Sub(t0), time.Since(t1)
	b.ReportMetric(float64(sw.Nanoseconds())/float64(b.N), "switch-ns")
	b.ReportMetric(float64(ho.Nanoseconds())/float64(b.N), "handoff-ns")
	b.ReportMetric(float64(sw)/float64(ho), "x-handoff")
}

// allEnabled: n goroutines each do k atomic adds on one counter, so that
// nearly all of them are enabled at every decision (each waits at an atomic,
// which is always ready).
func allEnabled(n, k int) func() {
	return func() {
		var x int64
		var wg sync.WaitGroup
		WGAdd("add", &wg, n)
		for i := 0; i < n; i++ {
			Go("go", func() {
				for j := 0; j < k; j++ {
					atomic.AddInt64(Atomic("add", &x), 1)
				}
				WGDone("done", &wg)
			})
		}
		WGWait("wait", &wg)
		if x != int64(n*k) {
			panic(fmt.Sprintf("x %d, want %d", x, n*k))
		}
	}
}

// readLocked: n goroutines each look k times into a map under a read lock
// (a read-locked Contains): three key points of four are reads, always
// ready, the fourth an RLock or RUnlock.
func readLocked(n, k int) func() {
	return func() {
		var mu sync.RWMutex
		m := map[int]int{1: 1}
		var wg sync.WaitGroup
		WGAdd("add", &wg, n)
		for i := 0; i < n; i++ {
			Go("go", func() {
				for j := 0; j < k; j++ {
					RLock("rlock", &mu)
					_ = MapR("contains", m)[j]
					_ = MapR("contains", m)[j+1]
					RUnlock("runlock", &mu)
				}
				WGDone("done", &wg)
			})
		}
		WGWait("wait", &wg)
	}
}

// BenchmarkAllEnabled: ns per key point (ns/op) when every goroutine is
// enabled at once (random strategy, race detection off); a decision's cost
// should not grow with n.
func BenchmarkAllEnabled(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("goroutines=%d", n), func(b *testing.B) {
			st, err := strategy.New("random", strategy.Options{Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			st.Begin()
			runControlledWith(Config{NoRace: true}, st, allEnabled(n, max(1, b.N/n)))
		})
	}
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("readlocked/goroutines=%d", n), func(b *testing.B) {
			st, err := strategy.New("random", strategy.Options{Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			st.Begin()
			runControlledWith(Config{NoRace: true}, st, readLocked(n, max(1, b.N/n/4)))
		})
	}
}

// sleepers: n goroutines start at once, each sleeps 10 ms (half of them on
// a time.After channel), and the test waits for all (ants' TestNoPool with
// 100,000 goroutines). Virtual time makes the sleeps free.
func sleepers(n int) func() {
	return func() {
		var wg sync.WaitGroup
		WGAdd("add", &wg, n)
		for i := 0; i < n; i++ {
			Go("go", func() {
				if i%2 == 0 {
					Sleep("sleep", 10*time.Millisecond)
				} else {
					Recv("after", After("after", 10*time.Millisecond))
				}
				WGDone("done", &wg)
			})
		}
		WGWait("wait", &wg)
	}
}

// BenchmarkSleepers: one schedule of sleepers under the random strategy
// (race detection off); ns/goroutine stays flat when the clock's wake-ups
// cost O(log n), and grows linearly with n when every step looks at every
// sleeper or timer.
func BenchmarkSleepers(b *testing.B) {
	for _, n := range scaleSizes {
		b.Run(fmt.Sprintf("goroutines=%d", n), func(b *testing.B) {
			st, err := strategy.New("random", strategy.Options{Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			f := sleepers(n)
			t0 := time.Now()
			for i := 0; i < b.N; i++ {
				st.Begin()
				runControlledWith(Config{NoRace: true}, st, f)
			}
			b.ReportMetric(float64(time.Since(t0).Nanoseconds())/float64(b.N*n), "ns/goroutine")
		})
	}
}
