//go:build go1.21

package rt

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// spinners: twenty goroutines take a CAS spin lock with a Gosched backoff
// three times each, as ants' spin lock does, for a critical section of ten
// atomic additions; a flag polled with atomic
// loads and Gosched by ten goroutines, set by a goroutine whose store the
// engine does not see (no hook), so only "nothing else can run" wakes them.
func spinners(t *testing.T) {
	var lock uint32
	var flag atomic.Bool
	var work int64
	count := 0
	done := make(chan struct{})
	for i := 0; i < 20; i++ {
		Go("go", func() {
			for j := 0; j < 3; j++ {
				backoff := 1
				for !CASDone(atomic.CompareAndSwapUint32(AtomicCAS("cas", &lock), 0, 1)) {
					for k := 0; k < backoff; k++ {
						Gosched("backoff")
					}
					backoff = min(2*backoff, 16)
				}
				for k := 0; k < 10; k++ { // a critical section of some steps
					atomic.AddInt64(Atomic("work", &work), 1)
				}
				count++
				atomic.StoreUint32(AtomicStore("unlock", &lock), 0)
			}
			Send("done", done, struct{}{})
		})
	}
	for i := 0; i < 10; i++ {
		Go("go", func() {
			for !AtomicLoad("load", &flag).Load() {
				Gosched("poll")
			}
			Send("done", done, struct{}{})
		})
	}
	Go("go", func() { flag.Store(true) }) // unseen: no hook
	for i := 0; i < 30; i++ {
		Recv("wait", done)
	}
	if count != 60 {
		t.Errorf("count = %d", count)
	}
}

func init() {
	programs["spinners"] = spinners
	programs["spinners-nopark"] = func(t *testing.T) {
		spinParking = false
		spinners(t)
	}
}

// TestSpinnersPark: goroutines that poll and yield wait until what they
// polled is written (or nothing else can run), so a schedule takes far
// fewer steps than when every spinner is always enabled; no verdict either
// way, and the flag set out of the engine's sight ends its pollers.
func TestSpinnersPark(t *testing.T) {
	park := runChild(t, "spinners", Config{Budget: 20, Seed: 1, NoRace: true, MaxSteps: 1000000})
	spin := runChild(t, "spinners-nopark", Config{Budget: 20, Seed: 1, NoRace: true, MaxSteps: 1000000})
	for _, s := range []Summary{park, spin} {
		if len(s.Bugs) != 0 || s.Schedules != 20 {
			t.Fatalf("%d schedules, bugs %+v", s.Schedules, s.Bugs)
		}
	}
	t.Logf("steps: %d parked, %d always enabled", park.Steps, spin.Steps)
	if 2*park.Steps > spin.Steps {
		t.Errorf("parking spinners saved too little: %d steps against %d", park.Steps, spin.Steps)
	}
}

// spinAfterStop: a goroutine holds a CAS spin lock and blocks forever, so
// the run ends in a deadlock; the test goroutine's deferred call then spins
// on that lock while unwinding, which can never succeed.
func spinAfterStop(t *testing.T) {
	var lock uint32
	lockIt := func() {
		for !CASDone(atomic.CompareAndSwapUint32(AtomicCAS("cas", &lock), 0, 1)) {
			Gosched("spin")
		}
	}
	defer lockIt()
	never := make(chan struct{})
	Go("holder", func() {
		lockIt()
		Recv("never", never)
	})
	Recv("wait", never)
}

func init() { programs["spinafterstop"] = spinAfterStop }

// TestSpinWhileUnwinding: the deadlock is reported and the exploration
// ends, although the unwinding test goroutine's deferred call would spin
// forever (it is ended after a bounded number of hooks).
func TestSpinWhileUnwinding(t *testing.T) {
	s := runChild(t, "spinafterstop", Config{Budget: 5, Seed: 1, NoRace: true})
	if len(s.Bugs) != 1 || s.Bugs[0].Kind != "deadlock" {
		t.Fatalf("want the deadlock: %+v", s)
	}
}

// busyNoKeyPoint computes for 3 s of wall time on data only it touches:
// every access calls a hook, none is a key point (as a retry loop on
// unshared objects on a loaded machine).
func busyNoKeyPoint(t *testing.T) {
	var x int
	W("w", &x) // first touch: x is g0's
	start := time.Now()
	for time.Since(start) < 3*time.Second {
		*W("w", &x)++
	}
	done := make(chan struct{})
	Go("go", func() { Close("close", done) })
	Recv("recv", done)
}

func init() { programs["busynokeypoint"] = busyNoKeyPoint }

// TestBusyWithoutKeyPointsIsNoHang: a goroutine that runs instrumented code
// without key points for longer than the hang limit (1 s here) is detached
// but not reported while it keeps calling hooks.
func TestBusyWithoutKeyPointsIsNoHang(t *testing.T) {
	s := runChild(t, "busynokeypoint", Config{Budget: 1, Seed: 1, NoRace: true})
	if len(s.Bugs) != 0 || s.Schedules != 1 {
		t.Fatalf("want one schedule without a verdict: %+v", s)
	}
}

// unseenWrite: a spinner polls a flag that a goroutine sets without a hook
// (code outside control), while two goroutines play ping-pong until the
// spinner has seen it: nothing ever leaves the others blocked, so only the
// bounded parking (spinRecheck) lets the spinner look again.
func unseenWrite(t *testing.T) {
	var flag, stop atomic.Bool
	done := make(chan struct{})
	Go("spinner", func() {
		for !AtomicLoad("poll", &flag).Load() {
			Gosched("yield")
		}
		AtomicStore("stop", &stop).Store(true)
		Close("done", done)
	})
	Go("setter", func() { flag.Store(true) }) // no hook: the engine does not see it
	ping, pong := make(chan int), make(chan int)
	Go("ping", func() {
		for !AtomicLoad("stopped", &stop).Load() {
			Send("ping", ping, 1)
			Recv("pong", pong)
		}
		Close("pingdone", ping)
	})
	for {
		if _, ok := Recv2("ping2", ping); !ok {
			break
		}
		Send("pong2", pong, 1)
	}
	Recv("wait", done)
}

func init() { programs["unseenwrite"] = unseenWrite }

// TestSpinnerSeesAnUnseenWrite: the ping-pong ends; no hang.
func TestSpinnerSeesAnUnseenWrite(t *testing.T) {
	s := runChild(t, "unseenwrite", Config{Budget: 3, Seed: 1, NoRace: true, MaxSteps: 1000000})
	if len(s.Bugs) != 0 || s.Schedules != 3 {
		t.Fatalf("want 3 schedules without a verdict: %+v", s)
	}
}

// spinAfterReturn: the test returns while goroutines it started spin on a
// flag nobody sets (ants' TestMaxBlockingSubmit leaves such tasks running).
// go test does not wait for them; goleak would report them: a leak, not a
// hang.
func spinAfterReturn(t *testing.T) {
	var flag atomic.Bool
	for i := 0; i < 3; i++ {
		Go("spinner", func() {
			for !AtomicLoad("poll", &flag).Load() {
				Gosched("yield")
			}
		})
	}
	Gosched("return")
}

func init() { programs["spinafterreturn"] = spinAfterReturn }

func TestSpinnersLeftRunningAreALeak(t *testing.T) {
	for _, steps := range []int{10_000, 2_000_000} { // the step limit first, then the bound after the test
		s := runChild(t, "spinafterreturn", Config{Budget: 2, Seed: 1, MaxSteps: steps})
		if kinds(s) != "leak" || !strings.Contains(s.Bugs[0].Message, "still running after the test returned") {
			t.Errorf("steps %d: want a leak of the spinners, got %+v", steps, s.Bugs)
		}
	}
}
