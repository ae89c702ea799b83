//go:build go1.21

package rt

import (
	"io/fs"
	"os"
	"reflect"
	"strings"
	"time"
)

// IO is v, a connection, listener, pipe, file or process of the standard
// library that the calling goroutine is about to use (the rewriter wraps
// them): the goroutine synchronises with others through it in ways Period
// does not see, so none of its races in this run is reported, as for a
// goroutine found waiting for real (realWait). A regular file and the
// standard streams order nobody (a log line to os.Stderr must not silence
// a goroutine's races): only an *os.File that is a pipe or a socket counts.
func IO[T any](v T) T {
	e := eng
	if !e.active.Load() {
		return v
	}
	g, md := e.enter()
	if md != modeControl {
		return v
	}
	if f, ok := any(v).(*os.File); !ok || e.fileOrdersGoroutines(f) {
		e.realWait(g)
		e.probeIO(g)
	}
	e.mu.Unlock()
	return v
}

// ioProbeDelay: how soon after a goroutine starts real I/O the engine looks
// whether it blocked there, to let the others run. The watchdog's own probe
// comes 5 to 10 ms later, past the 10 ms deadlines some tests set on a pipe
// whose writer waits for its turn (simonvetter/modbus).
const ioProbeDelay = 300 * time.Microsecond

// probeIO arms a look at g, the current goroutine about to use a
// connection, pipe or process of the standard library: if it is still
// there, blocked for real, after ioProbeDelay, it is detached. One look per
// step. e.mu is held.
func (e *engine) probeIO(g *gstate) {
	if e.cur != g || e.transit != 0 || e.free || g.ioProbe == e.steps+1 {
		return
	}
	g.ioProbe = e.steps + 1
	gen, step := e.runGen, e.steps
	time.AfterFunc(ioProbeDelay, func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.active.Load() && !e.finished && e.runGen == gen && e.steps == step && e.cur == g && e.transit == 0 && waitsForOthers(g.goid) {
			e.detachCurrent(g, true)
		}
	})
}

// fileOrdersGoroutines tells whether f is a pipe or a socket other than the
// standard streams (go test's stdout is a pipe to the go command); the
// answer is kept for the run (e.fileKinds), so a file is looked at once,
// and not kept alive past it. e.mu is held.
func (e *engine) fileOrdersGoroutines(f *os.File) bool {
	if f == nil || f == os.Stdin || f == os.Stdout || f == os.Stderr {
		return false
	}
	if k, ok := e.fileKinds[f]; ok {
		return k
	}
	st, err := f.Stat()
	pipe := err == nil && st.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) != 0
	if e.fileKinds == nil {
		e.fileKinds = map[*os.File]bool{}
	}
	e.fileKinds[f] = pipe
	return pipe
}

// Deadlines handed to the standard library's connections, pipes and files
// are instants of its real clock, while the program computes them from
// virtual time (conn.SetDeadline(time.Now().Add(10*time.Millisecond))).
// Virtual time runs behind real time while a run computes and ahead of it
// after a jump, so the deadline would fire at once or far too late. The
// SetDeadline hooks move it to the real instant as far from now as the
// program meant, when the connection is the standard library's; a type of
// the program's own (pion's virtual-time deadlines) gets it unchanged.

// SetDeadlineIface is x.SetDeadline(t).
func SetDeadlineIface(x interface{ SetDeadline(time.Time) error }, t time.Time) error {
	return x.SetDeadline(toRealClock(x, t))
}

// SetReadDeadlineIface is x.SetReadDeadline(t).
func SetReadDeadlineIface(x interface{ SetReadDeadline(time.Time) error }, t time.Time) error {
	return x.SetReadDeadline(toRealClock(x, t))
}

// SetWriteDeadlineIface is x.SetWriteDeadline(t).
func SetWriteDeadlineIface(x interface{ SetWriteDeadline(time.Time) error }, t time.Time) error {
	return x.SetWriteDeadline(toRealClock(x, t))
}

// toRealClock maps the virtual instant t to the real one for x, when x is
// a type of the standard library.
func toRealClock(x any, t time.Time) time.Time {
	e := eng
	if t.IsZero() || !e.active.Load() || !stdType(x) {
		return t
	}
	return realInstant(t)
}

// stdType tells whether x's dynamic type (or what it points to) is
// declared in the standard library.
func stdType(x any) bool {
	t := reflect.TypeOf(x)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.PkgPath() == "" {
		return false
	}
	first, _, _ := strings.Cut(t.PkgPath(), "/")
	return !strings.Contains(first, ".")
}
