//go:build go1.21

package rt

import (
	"io/fs"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"sync"
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
	switch any(v).(type) {
	case *exec.Cmd, *os.Process:
		g.childWait, g.childAt = true, time.Now()
	}
	if f, ok := any(v).(*os.File); !ok || e.fileOrdersGoroutines(f) {
		e.realWait(g)
		e.probeIO(g)
	}
	e.mu.Unlock()
	return v
}

// ioProbeDelay: how soon after a goroutine starts real I/O the engine looks
// whether it blocked there, to let the others run (a timer: about 1.08 ms
// in an idle process, whatever shorter delay it is given). The watchdog's
// own probe, 1 to 2 ms after a stall began, once took 5 to 10 ms, past the
// 10 ms deadlines some tests set on a pipe whose writer waits for its turn
// (simonvetter/modbus).
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
	g.ioProbeGen, g.ioProbeStep = e.runGen, e.steps
	// One timer per goroutine, reset at each probe: a connection's reads
	// and writes would otherwise cost a timer and a closure each, which
	// code counting its own allocations sees (pion/ice).
	if g.ioTimer == nil {
		g.ioTimer = time.AfterFunc(ioProbeDelay, func() { e.ioLook(g) })
	} else {
		g.ioTimer.Reset(ioProbeDelay)
	}
}

// ioLook is probeIO's look at g: still at the step it was armed at, blocked
// for real, it is detached.
func (e *engine) ioLook(g *gstate) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.active.Load() && !e.finished && e.runGen == g.ioProbeGen && e.steps == g.ioProbeStep && e.cur == g && e.transit == 0 && !e.settlingOutside && waitsForOthers(g.goid) {
		e.detachCurrent(g, true)
	}
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
// virtual time (conn.SetDeadline(time.Now().Add(100*time.Millisecond))).
// A deadline is a timer of the program: it expires on the virtual clock,
// which passes with the run's steps and, while goroutines wait for real,
// with real time. So the SetDeadline hooks arm a timer of the clock that,
// when it fires, sets the connection's real deadline to the present
// (pending and later I/O fail with a timeout, as at a deadline), and give
// the connection a real deadline well after it, a fallback for a run that
// ends first. A real deadline as short as the program's would expire while
// the run is busy elsewhere (serialized, and instrumented code is slower):
// memberlist's 100 ms push/pull deadline closed connections whose peer had
// not been scheduled yet ("failed to join: EOF" in hashicorp/serf). A type
// of the program's own (pion's virtual-time deadlines) gets t unchanged.

// SetDeadlineIface is x.SetDeadline(t).
func SetDeadlineIface(x interface{ SetDeadline(time.Time) error }, t time.Time) error {
	if in, ok := promotedStd(x, "SetDeadline").(interface{ SetDeadline(time.Time) error }); ok {
		return SetDeadlineIface(in, t)
	}
	if rw, ok := x.(interface {
		SetReadDeadline(time.Time) error
		SetWriteDeadline(time.Time) error
	}); ok && armable(x, t) {
		err := x.SetDeadline(fallbackInstant(t))
		armDeadline(x, deadlineRead, t, func() { rw.SetReadDeadline(time.Now()) })
		armDeadline(x, deadlineWrite, t, func() { rw.SetWriteDeadline(time.Now()) })
		return err
	}
	return x.SetDeadline(toRealClock(x, t))
}

// SetReadDeadlineIface is x.SetReadDeadline(t).
func SetReadDeadlineIface(x interface{ SetReadDeadline(time.Time) error }, t time.Time) error {
	if in, ok := promotedStd(x, "SetReadDeadline").(interface{ SetReadDeadline(time.Time) error }); ok {
		return SetReadDeadlineIface(in, t)
	}
	if !armable(x, t) {
		return x.SetReadDeadline(toRealClock(x, t))
	}
	err := x.SetReadDeadline(fallbackInstant(t))
	armDeadline(x, deadlineRead, t, func() { x.SetReadDeadline(time.Now()) })
	return err
}

// SetWriteDeadlineIface is x.SetWriteDeadline(t).
func SetWriteDeadlineIface(x interface{ SetWriteDeadline(time.Time) error }, t time.Time) error {
	if in, ok := promotedStd(x, "SetWriteDeadline").(interface{ SetWriteDeadline(time.Time) error }); ok {
		return SetWriteDeadlineIface(in, t)
	}
	if !armable(x, t) {
		return x.SetWriteDeadline(toRealClock(x, t))
	}
	err := x.SetWriteDeadline(fallbackInstant(t))
	armDeadline(x, deadlineWrite, t, func() { x.SetWriteDeadline(time.Now()) })
	return err
}

type connDeadlineKey struct {
	x    any
	kind uint8
}

const (
	deadlineRead = iota
	deadlineWrite
)

// armable tells whether x's deadline t goes on the virtual clock: a
// standard library type, comparable (to find its timer again), set by a
// controlled goroutine in this run, t in the future. A zero t (no
// deadline) also stops the timer armed before.
func armable(x any, t time.Time) bool {
	e := eng
	if !e.active.Load() || !stdType(x) || !reflect.TypeOf(x).Comparable() {
		return false
	}
	if t.IsZero() {
		e.mu.Lock()
		for k := uint8(deadlineRead); k <= deadlineWrite; k++ {
			if vt := e.connDeadlines[connDeadlineKey{x, k}]; vt != nil {
				vt.active = false
				delete(e.connDeadlines, connDeadlineKey{x, k})
			}
		}
		e.mu.Unlock()
		return false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.callerG() != nil && !e.finished && !e.free && t.After(e.now())
}

// fallbackRatio: the real deadline given with a timer of the clock is this
// many times as far as the program asked, and a second more.
const fallbackRatio = 10

func fallbackInstant(t time.Time) time.Time {
	e := eng
	e.mu.Lock()
	d := t.Sub(e.now())
	e.mu.Unlock()
	return time.Now().Add(fallbackRatio*d + time.Second)
}

// armDeadline sets x's deadline of that kind to expire at virtual instant
// t, replacing the one set before.
func armDeadline(x any, kind uint8, t time.Time, expire func()) {
	e := eng
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.active.Load() || e.finished {
		return
	}
	k := connDeadlineKey{x, kind}
	if old := e.connDeadlines[k]; old != nil {
		old.active = false
	}
	if e.connDeadlines == nil {
		e.connDeadlines = map[connDeadlineKey]*vtimer{}
	}
	vt := &vtimer{when: e.vnow() + int64(t.Sub(e.now())), expire: func() {
		delete(e.connDeadlines, k)
		expire()
		// The expiry ends a real read or write: the clock waits again
		// (a new outsideGrace) for what its goroutine does next, instead
		// of jumping at once to the next timer, a later deadline of the
		// peer that the answer would have beaten (soheilhy/cmux's
		// TestTimeout).
		e.graceFrom = time.Time{}
	}}
	e.connDeadlines[k] = vt
	e.clock.add(vt)
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

// promotedStd returns the value of a standard library type whose method
// name x's method is, promoted through embedding (sarama's bufConn embeds
// a net.Conn and declares Read only): that value's deadline is the real
// one, and the hook treats it as such. Before, the virtual instant went to
// the TCP connection unchanged, a real deadline as far from the real
// present as the virtual clock lagged behind it: reads timed out at once
// (sarama's ListTopics retries, "i/o timeout" on every attempt). nil when
// x, or a type on the way, declares the method itself (pion's deadlines
// of the virtual clock).
func promotedStd(x any, name string) any {
	if x == nil || stdType(x) || !eng.active.Load() {
		return nil
	}
	v := reflect.ValueOf(x)
	for depth := 0; depth < 4; depth++ {
		t := v.Type()
		if declares(t, name) || t.Kind() == reflect.Pointer && declares(t.Elem(), name) {
			return nil
		}
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return nil
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return nil
		}
		var next reflect.Value
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); !f.Anonymous || !f.IsExported() {
				continue
			}
			fv := v.Field(i)
			if fv.Kind() == reflect.Interface {
				if fv.IsNil() {
					continue
				}
				fv = fv.Elem()
			}
			if _, ok := fv.Type().MethodByName(name); ok {
				next = fv
				break
			}
		}
		if !next.IsValid() || !next.CanInterface() {
			return nil
		}
		if in := next.Interface(); stdType(in) {
			return in
		}
		v = next
	}
	return nil
}

// declares tells whether t's method name is declared in source, not a
// wrapper the compiler made for a method promoted through embedding (or
// for a value method called through a pointer). Cached by type.
func declares(t reflect.Type, name string) bool {
	k := declKey{t, name}
	if d, ok := declared.Load(k); ok {
		return d.(bool)
	}
	d := false
	if m, ok := t.MethodByName(name); ok {
		pc := m.Func.Pointer()
		if f := runtime.FuncForPC(pc); f != nil {
			file, _ := f.FileLine(pc)
			d = file != "<autogenerated>"
		}
	}
	declared.Store(k, d)
	return d
}

type declKey struct {
	t    reflect.Type
	name string
}

var declared sync.Map // declKey -> bool

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
