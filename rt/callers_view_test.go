//go:build go1.21

package rt

import "testing"

func TestWaitingState(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"goroutine 7 [select]:", "goroutine 7 [chan receive]:"},
		{"goroutine 7 [select, 2 minutes]:", "goroutine 7 [chan receive, 2 minutes]:"},
		{"goroutine 7 [chan receive]:", "goroutine 7 [chan receive]:"},
		{"goroutine 7", "goroutine 7"},
	} {
		if got := waitingState(c.in, "chan receive"); got != c.want {
			t.Errorf("waitingState(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A goroutine of the engine's own timers (created by time.goFunc, every
// frame Period's) is left out of the program's view of runtime.Stack: with
// its frames dropped and its creator kept, goleak v1.1.10's parser panicked
// on it ("function calls missing parents: created by time.goFunc", rxgo).
func TestStackViewDropsEngineTimers(t *testing.T) {
	const timerCreator = "created by time.goFunc\n\t/usr/local/go/src/time/sleep.go:215 +0x2d"
	for _, c := range []struct{ name, stack string }{
		{"engine timer", "goroutine 1347 [runnable]:\n" +
			"github.com/period-dev/period/rt.(*engine).watch.func3()\n\t/src/rt/engine.go:1905 +0x2b\n"},
		// The same caught while its decision reads its own id through
		// runtime.Stack: the runtime's frame alone is left, and the
		// goroutine is still Period's (TestGoroutineListingSeesNoPeriodGoroutine
		// saw it now and then).
		{"engine timer reading its id", "goroutine 56 [semacquire]:\n" +
			"runtime.Stack({0x3e19007fa000, 0x10000, 0x10000}, 0x1)\n\t/usr/local/go/src/runtime/mprof.go:1704 +0x5d\n" +
			"github.com/period-dev/period/rt.goidSlow()\n\t/src/rt/goid.go:22 +0x2b\n" +
			"github.com/period-dev/period/rt.(*engine).decideAfter.func1()\n\t/src/rt/engine.go:1870 +0x2b\n"},
		// Or waiting for e.mu, which the listing holds: the lock's frames
		// are above Period's (a full test run saw it).
		{"engine timer waiting for the engine's lock", "goroutine 22 [runnable]:\n" +
			"internal/sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n" +
			"internal/sync.(*Mutex).lockSlow(0x1d9718f6a000)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\n" +
			"internal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\n" +
			"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n" +
			"github.com/period-dev/period/rt.(*engine).decideAfter.func1()\n\t/src/rt/engine.go:1975 +0x2b\n"},
	} {
		if v, ok := goStackView(c.stack+timerCreator, nil, nil, nil); ok {
			t.Errorf("%s kept:\n%s", c.name, v)
		}
	}
	userTimer := "goroutine 1348 [chan receive]:\n" +
		"example.com/p.f.func1()\n\t/src/p/p.go:10 +0x2b\n" +
		timerCreator
	if v, ok := goStackView(userTimer, nil, nil, nil); !ok || v != userTimer {
		t.Errorf("user timer = %q, %v; want it unchanged", v, ok)
	}
	inHook := "goroutine 1349 [chan receive]:\n" +
		"github.com/period-dev/period/rt.Recv[...](...)\n\t/src/rt/chan.go:100 +0x2b\n" +
		"example.com/p.f.func1()\n\t/src/p/p.go:10 +0x2b\n" +
		timerCreator
	want := "goroutine 1349 [chan receive]:\n" +
		"example.com/p.f.func1()\n\t/src/p/p.go:10 +0x2b\n" +
		timerCreator
	if v, ok := goStackView(inHook, nil, nil, nil); !ok || v != want {
		t.Errorf("goroutine in a hook = %q, %v; want %q", v, ok, want)
	}
}
