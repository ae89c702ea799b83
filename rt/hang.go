//go:build go1.21

package rt

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"
)

// exitIfStuck is called, e.mu held, when the watchdog has reported a hang
// of goroutine g and stopped the run. A goroutine that spins without key
// points, or sits in a system call, cannot be unwound: when it is the test's
// own goroutine the run never returns, and the process would wait for the
// package's -timeout (minutes), then again to record the schedule. If the run
// has not returned after a grace period, the process prints the hang with
// the stuck goroutine's stack and exits; the runner reports the schedule as
// a hang (hangLine in internal/runner) and goes on with the other tests.
func (e *engine) exitIfStuck(g *gstate, msg, loc string) {
	idx, id := e.runIdx, g.goid
	grace := 4*e.cfg.watchdog + time.Second
	go func() {
		deadline := time.Now().Add(grace)
		for time.Now().Before(deadline) {
			time.Sleep(grace / 20)
			if !e.active.Load() {
				return
			}
			e.mu.Lock()
			same := e.runIdx == idx
			e.mu.Unlock()
			if !same {
				return
			}
		}
		stack := goroutineStack(id)
		if l := panicLocation(stack); l != "" {
			loc = l
		}
		fmt.Fprintf(os.Stderr, "\nperiod: hang at %s: %s\n%s\n", loc, msg, cleanStack(stack))
		os.Exit(3)
	}()
}

// goroutineStack is the stack of the goroutine with the given id, in the
// format of runtime.Stack(buf, false); nil if it is gone.
func goroutineStack(id int64) []byte {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	head := []byte("goroutine " + strconv.FormatInt(id, 10) + " [")
	for _, b := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.HasPrefix(b, head) {
			return b
		}
	}
	return nil
}
