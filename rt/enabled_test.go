//go:build go1.21

package rt

import (
	"math/rand"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/period-dev/period/strategy"
)

// first always picks the enabled goroutine of lowest GID: the others are
// passed over until fairness (unfairBound) runs them.
type first struct{ alternate }

func (s *first) Next(en []strategy.Event) int { return 0 }

// randomProgram is a run of goroutines doing a random mix of operations:
// always ready ones (atomics, shared reads and writes, Gosched, selects with
// a default, go statements) and others (locks, read and write locks,
// sleeps, channels, spinning on a flag), so that goroutines move between the fast ones, the
// candidates and the blocked ones in every order.
func randomProgram(seed int64) func() {
	return func() {
		rng := rand.New(rand.NewSource(seed))
		n := 2 + rng.Intn(10)
		var x, y int64
		var flag atomic.Int32
		var mu sync.Mutex
		var rw sync.RWMutex
		var wg sync.WaitGroup
		buf := make(chan int, 2)
		unbuf := make(chan int)
		WGAdd("add", &wg, n)
		for i := 0; i < n; i++ {
			ops := make([]int, 20+rng.Intn(60))
			kinds := 15
			if i == 0 {
				// Never blocking, and long enough for the others to
				// starve under first.
				ops, kinds = make([]int, 600), 6
			}
			for k := range ops {
				ops[k] = rng.Intn(kinds)
			}
			Go("go", func() {
				defer WGDone("done", &wg)
				for k, op := range ops {
					switch op {
					case 0:
						atomic.AddInt64(Atomic("atomic", &x), 1)
					case 1:
						_ = *R("read", &y)
					case 2:
						*W("write", &y) = int64(k)
					case 3:
						Gosched("yield")
					case 4:
						sel := Select("select buf", true, RecvCase(buf), SendCase(buf))
						select {
						case <-RecvIf(sel, 0, buf):
							SelectDone(sel)
						case SendIf(sel, 1, buf) <- k:
							SelectDone(sel)
						case <-DefaultIf(sel):
						}
					case 5:
						sel := Select("select unbuf", true, SendCase(unbuf), RecvCase(unbuf))
						select {
						case SendIf(sel, 0, unbuf) <- k:
							SelectDone(sel)
						case <-RecvIf(sel, 1, unbuf):
							SelectDone(sel)
						case <-DefaultIf(sel):
						}
					case 6:
						after := After("after", time.Microsecond)
						sel := Select("select wait", false, RecvCase(unbuf), RecvCase(after))
						select {
						case <-RecvIf(sel, 0, unbuf):
							SelectDone(sel)
						case <-RecvIf(sel, 1, after):
							SelectDone(sel)
						}
					case 7:
						Lock("lock", &mu)
						atomic.AddInt64(Atomic("locked", &x), 1)
						Unlock("unlock", &mu)
					case 8:
						RLock("rlock", &rw)
						_ = *R("rlocked", &y)
						RUnlock("runlock", &rw)
					case 9:
						Sleep("sleep", time.Microsecond)
					case 10:
						WGAdd("add child", &wg, 1)
						Go("child", func() {
							atomic.AddInt64(Atomic("child", &x), 1)
							WGDone("child done", &wg)
						})
					case 11:
						for s := 0; s < 3 && AtomicLoad("poll", &flag).Load() == 0; s++ {
							Gosched("spin")
						}
					case 12:
						AtomicStore("set", &flag).Store(int32(k % 2))
					case 13:
						RWLock("wlock", &rw)
						*W("wlocked", &y) = int64(k)
						RWUnlock("wunlock", &rw)
					case 14:
						if TryLock("trylock", &mu) {
							Unlock("unlock tried", &mu)
						}
					}
				}
			})
		}
		WGWait("wait", &wg)
	}
}

// TestEnabledSetRandomPrograms runs random programs under several
// strategies with verifyReady on: every decision checks the enabled set,
// its events and the starved goroutine found from stamps against a full
// pass and a count kept the old way (verifyEnabled, verifyPassed).
func TestEnabledSetRandomPrograms(t *testing.T) {
	if !verifyReady {
		t.Skip("verifyReady is off")
	}
	defer func(n, s int) { flushOneByOne, lockStableAfter = n, s }(flushOneByOne, lockStableAfter)
	forced := 0
	for seed := int64(1); seed <= 60; seed++ {
		flushOneByOne = []int{0, 4}[seed%2]           // merged, or one by one
		lockStableAfter = []int{-1, 0, 2}[(seed/2)%3] // lock waiters kept out of the candidates at once, or not
		for _, name := range []string{"first", "random", "pct", "alternate"} {
			var st strategy.Strategy
			switch name {
			case "first":
				st = &first{}
			case "alternate":
				st = &alternate{}
			default:
				var err error
				if st, err = strategy.New(name, strategy.Options{Seed: seed}); err != nil {
					t.Fatal(err)
				}
			}
			st.Begin()
			done := make(chan struct{})
			go func() {
				defer close(done)
				runControlledWith(Config{NoRace: true}, st, randomProgram(seed))
			}()
			select {
			case <-done:
			case <-time.After(time.Minute):
				// A failed check panics with e.mu held: the run hangs.
				t.Fatalf("seed %d, %s: the run hangs (a check failed?)", seed, name)
			}
			forced += eng.forced
			for _, b := range eng.bugs {
				// A check that failed panicked in a goroutine: reported as a panic.
				if b.kind == "panic" {
					t.Fatalf("seed %d, %s: %s", seed, name, b.message)
				}
				t.Logf("seed %d, %s: %s %s", seed, name, b.kind, b.message)
			}
		}
	}
	if forced == 0 {
		t.Error("fairness never overrode a strategy: the starvation rule went untested")
	}
	t.Logf("%d forced decisions", forced)
}

// recorder picks the enabled goroutine of highest GID and records which
// operations were enabled together.
type recorder struct {
	alternate
	seen [][]strategy.Op
}

func (s *recorder) Next(en []strategy.Event) int {
	ops := make([]strategy.Op, len(en))
	for i, e := range en {
		ops[i] = e.Op
	}
	s.seen = append(s.seen, ops)
	return len(en) - 1
}

// TestSelectDefaultIsNoPartner: a select with a default never waits in a
// channel's queue, so a receiver that comes to the channel while the
// select's goroutine is parked there blocks (it is not enabled beside the
// select), and the select, when it runs, takes the queued receiver.
func TestSelectDefaultIsNoPartner(t *testing.T) {
	st := &recorder{}
	sent := false
	runControlledWith(Config{NoRace: true}, st, func() {
		ch := make(chan int)
		Go("receiver", func() { Recv("recv", ch) }) // chosen first: the select is parked already
		sel := Select("select", true, SendCase(ch))
		select {
		case SendIf(sel, 0, ch) <- 1:
			SelectDone(sel)
			sent = true
		case <-DefaultIf(sel):
		}
	})
	for _, ops := range st.seen {
		if len(ops) == 2 && ops[0] == strategy.OpSelect && ops[1] == strategy.OpRecv {
			t.Errorf("the receiver was enabled beside the select with a default: %v", st.seen)
		}
	}
	if !sent {
		t.Errorf("the select did not take the queued receiver: %v", st.seen)
	}
}
