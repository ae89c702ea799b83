//go:build go1.21

package rt

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/period-dev/period/trace"
)

// exitIfStuck is called, e.mu held, when the watchdog has reported a hang
// of goroutine g and stopped the run. A goroutine that spins without key
// points, or sits in a system call, cannot be unwound: when it is the test's
// own goroutine the run never returns, and the process would wait for the
// package's -timeout (minutes), then again to record the schedule. If the run
// has not returned after a grace period, the process prints the hang with
// the stuck goroutine's stack and exits; the runner reports the schedule as
// a hang (hangLine in internal/runner) and goes on with the other tests.
func (e *engine) exitIfStuck(g *gstate, msg, loc string, hang bool) {
	idx, id := e.runIdx, g.goid
	if e.exitArmed == e.runGen {
		return // the first verdict on this run's end stands
	}
	e.exitArmed = e.runGen
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
		if l := stuckFrame(stack); l != "" {
			loc = l
		}
		what := "hang"
		if !hang {
			what = "abandoned" // no verdict: the runner skips the schedule
		}
		fmt.Fprintf(os.Stderr, "\nperiod: %s at %s: %s\n%s\n", what, loc, msg, cleanStack(stack))
		os.Exit(3)
	}()
}

// allStacks is runtime.Stack of every goroutine, whole: a buffer too small
// for them cuts the list, and a goroutine left out looks gone.
func allStacks() []byte {
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// goroutineStack is the stack of the goroutine with the given id, in the
// format of runtime.Stack(buf, false); nil if it is gone.
func goroutineStack(id int64) []byte {
	buf := allStacks()
	head := []byte("goroutine " + strconv.FormatInt(id, 10) + " [")
	for _, b := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.HasPrefix(b, head) {
			return b
		}
	}
	return nil
}

// realBlocked reports whether goroutine id is blocked in the Go runtime: on
// a real mutex, channel, I/O or system call of code Period does not control
// (a std logger's lock held by another controlled goroutine, a pipe). The
// watchdog then detaches it at once rather than after its full limit, made
// for code that computes long without a key point.
func realBlocked(id int64) bool {
	st, status := stackAndStatus(id)
	return blockedIn(st, status)
}

// blockedIn is realBlocked on a goroutine's stack and status.
func blockedIn(st []byte, status string) bool {
	if st == nil {
		return false
	}
	// Blocked inside the engine (parked, waiting for e.mu, or sleeping in
	// settleOutside's wait for goroutines outside control while it
	// decides) is not blocked in user code: the innermost frame outside
	// the runtime, sync and time decides.
	lines := strings.Split(string(st), "\n")
	for k := 1; k+1 < len(lines); k += 2 {
		if strings.HasPrefix(lines[k], "runtime.") || strings.HasPrefix(lines[k], "internal/") || strings.HasPrefix(lines[k], "sync.") || strings.HasPrefix(lines[k], "time.Sleep(") {
			continue
		}
		if isPeriodFrame(lines[k]) {
			return false
		}
		break
	}
	return !runningStatus(status)
}

// waitingForChild reports whether a detached goroutine waits for a child
// process to end. e.mu is held.
func (e *engine) waitingForChild() bool {
	for _, g := range e.gs {
		if g.status == gDetached && waitsForChild(g.goid) {
			return true
		}
	}
	return false
}

// waitsForChild reports whether goroutine id is blocked in os/exec's or
// os's wait for a child process (or for the copying of its output).
func waitsForChild(id int64) bool {
	st, status := stackAndStatus(id)
	if st == nil || runningStatus(status) {
		return false
	}
	for _, f := range []string{"\nos/exec.(*Cmd).Wait(", "\nos.(*Process).Wait(", "\nos/exec.(*Cmd).Run(", "\nos/exec.(*Cmd).Output(", "\nos/exec.(*Cmd).CombinedOutput("} {
		if bytes.Contains(st, []byte(f)) {
			return true
		}
	}
	return false
}

// waitsForOthers is realBlocked, but not for a sleep: a goroutine blocked
// on I/O, a channel or a lock of code Period does not see waits for
// someone, and the others must run beside it at once (the watchdog's
// probe); a real sleep (jitter, a library's backoff) ends on its own, and
// detaching it at once would let real timing pick the schedule.
func waitsForOthers(id int64) bool {
	st, status := stackAndStatus(id) // one dump of all stacks: a stop of the world
	return blockedIn(st, status) && !strings.HasPrefix(status, "sleep")
}

// goroutineStatuses maps every goroutine's id to its status, from one
// dump of all stacks.
func goroutineStatuses() map[int64]string {
	m := map[int64]string{}
	eachGoroutine(func(id int64, status, _ []byte) { m[id] = string(status) })
	return m
}

// eachGoroutine calls f with every goroutine's id, status and stack, from
// one dump of all stacks.
func eachGoroutine(f func(id int64, status, stack []byte)) {
	for _, b := range bytes.Split(allStacks(), []byte("\n\n")) {
		rest, ok := bytes.CutPrefix(b, []byte("goroutine "))
		if !ok {
			continue
		}
		sp, i, j := bytes.IndexByte(rest, ' '), bytes.IndexByte(rest, '['), bytes.IndexByte(rest, ']')
		if sp < 0 || i < sp || j < i {
			continue
		}
		if id, err := strconv.ParseInt(string(rest[:sp]), 10, 64); err == nil {
			f(id, rest[i+1:j], rest)
		}
	}
}

// durableStatus reports whether a goroutine status is a block that only
// another goroutine can end (synctest's "durably blocked"): a channel
// operation, a select, a sync lock, condition or WaitGroup; not I/O, a
// system call or a sleep. A status may carry ", N minutes".
func durableStatus(status string) bool {
	for _, p := range []string{"chan receive", "chan send", "select", "sync.", "semacquire"} {
		if strings.HasPrefix(status, p) {
			return true
		}
	}
	return false
}

// stackAndStatus is goroutine id's stack and its status ("running",
// "chan receive"...); nil if it is gone.
func stackAndStatus(id int64) ([]byte, string) {
	st := goroutineStack(id)
	i, j := bytes.IndexByte(st, '['), bytes.IndexByte(st, ']')
	if i < 0 || j < i {
		return nil, ""
	}
	return st, string(st[i+1 : j])
}

// runningStatus reports whether a goroutine status says it runs or can.
func runningStatus(status string) bool {
	return strings.HasPrefix(status, "running") || strings.HasPrefix(status, "runnable") || strings.HasPrefix(status, "GC") || strings.HasPrefix(status, "preempted")
}

// spinningHang ends the watchdog's message for a goroutine that reached no
// key point for the hang limit (a real-time verdict: replay.go).
const spinningHang = "without reaching a key point (spinning)"

// hangSuspects is the detached goroutine the watchdog judges when the run
// has made no progress for the hang limit: the first that runs (or waits
// for a CPU), else the first detached. A goroutine blocked inside the
// engine (a test waiting in t.Run for its subtest) does not stop the run;
// the subtest beside it that computes (formatting a map of 100,000
// entries for t.Log, zitadel/oidc's TestNewUserCode) does, and was not
// looked at: the parent was reported as spinning. At most one; a slice so
// that the watchdog's judgement is a loop its verdicts break out of. e.mu is
// held.
func (e *engine) hangSuspects() []*gstate {
	var first *gstate
	for _, g := range e.gs {
		if g.status != gDetached {
			continue
		}
		if first == nil {
			first = g
		}
		if _, status := stackAndStatus(g.goid); runningStatus(status) {
			return []*gstate{g}
		}
	}
	if first == nil {
		return nil
	}
	return []*gstate{first}
}

// busyOutsideProgram tells where goroutine id, running (not blocked),
// computes without calling hooks when that is not the program's own code:
// "the standard library" (sorting 800,000 strings, a big modular
// exponentiation), "the Go runtime" (its innermost frame: an allocation, a
// garbage collection assist on a big heap; jaeger-client-go's
// TestEmitBatchOverhead, 65,535 spans, was called spinning beside two other
// explorations), or "" (the program's code, where a spin loop without key
// points runs). Such a computation returns, as it
// does under go test; a spin in the program's code does not.
func busyOutsideProgram(id int64) string {
	st, status := stackAndStatus(id)
	if st == nil || !runningStatus(status) {
		return ""
	}
	lines := strings.Split(string(st), "\n")
	for k := 1; k+1 < len(lines); k += 2 {
		if strings.HasPrefix(lines[k], "runtime.") || strings.HasPrefix(lines[k], "internal/") {
			if k == 1 && !strings.HasPrefix(lines[k], "runtime.asyncPreempt") {
				return "the Go runtime" // its innermost frame
			}
			continue
		}
		file := filepath.ToSlash(strings.TrimSpace(lines[k+1]))
		if !isPeriodFrame(lines[k]) && goroot != "" && strings.HasPrefix(file, goroot) {
			return "the standard library"
		}
		return ""
	}
	return ""
}

// stuckFrame is the innermost frame of a stuck goroutine's stack that is
// not in the standard library (a read blocked in internal/poll is reported
// where the user's code called it), else the frame panicLocation picks.
func stuckFrame(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i := 1; i+1 < len(lines); i += 2 {
		file := strings.TrimSpace(lines[i+1])
		if isPeriodFrame(lines[i]) || goroot != "" && strings.HasPrefix(filepath.ToSlash(file), goroot) {
			continue
		}
		if strings.Contains(file, "/src/runtime/") || strings.Contains(file, "/src/testing/") {
			continue
		}
		if k := strings.LastIndex(file, " +0x"); k >= 0 {
			file = file[:k]
		}
		return trace.ModuleLoc(file)
	}
	return panicLocation(stack)
}
