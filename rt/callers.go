//go:build go1.21

package rt

import (
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/period-dev/period/strategy"
)

// Under control a test function is called by Period's engine, and the
// goroutines it starts begin in it: stacks walked by the program (a
// helper that names its caller's package, testify's and go-testdeep's
// traces, which stop at testing.tRunner) would show Period's frames where
// go test shows none. Caller and Callers leave them out, so the test sees
// TestX called by testing.tRunner and a goroutine's function as its first
// frame, as under go test.

// Callers is runtime.Callers(skip, pcs) without Period's frames. The skip
// counts the frames the program sees: Period's are taken out first (a
// hook around sync.Once.Do stands where go test shows Do's own frames).
//
// Not inlined: its frame would be in the caller's program counter, which
// cannot be taken out.
//
//go:noinline
func Callers(skip int, pcs []uintptr) int {
	if !eng.active.Load() {
		return runtime.Callers(skip+1, pcs)
	}
	buf := make([]uintptr, len(pcs)+skip+64)
	kept := withoutPeriod(buf[:runtime.Callers(0, buf)]) // runtime.Callers, then Callers' caller
	for ; skip > 0 && len(kept) > 0; kept = kept[1:] {
		// A program counter stands for its inlined frames too; one the
		// skip ends inside is kept whole.
		n := programFrames(kept[0])
		if n > skip {
			break
		}
		skip -= n
	}
	return copy(pcs, kept)
}

// programFrames counts the frames pc stands for that are not Period's.
func programFrames(pc uintptr) int {
	n := 0
	frames := runtime.CallersFrames([]uintptr{pc})
	for {
		f, more := frames.Next()
		if !periodFrame(f) {
			n++
		}
		if !more {
			return n
		}
	}
}

// Caller is runtime.Caller(skip) without Period's frames, which the skip
// does not count (Callers): riverqueue's test helper names its caller's
// package with runtime.Caller(4) from within a sync.Once's function, past
// the two frames of Once.Do, which its hook had replaced.
func Caller(skip int) (pc uintptr, file string, line int, ok bool) {
	if !eng.active.Load() {
		return runtime.Caller(skip + 1)
	}
	buf := make([]uintptr, skip+64)
	frames := runtime.CallersFrames(buf[:runtime.Callers(2, buf)]) // from Caller's caller
	for {
		f, more := frames.Next()
		if !periodFrame(f) {
			if skip == 0 {
				return f.PC, f.File, f.Line, f.PC != 0
			}
			skip--
		}
		if !more {
			return 0, "", 0, false
		}
	}
}

// periodFrame tells whether f is the code of Period's runtime: by its
// file too, since a closure of an rt function inlined into the program's
// is named after the program's function (TestX.PackageOnceDo.func2).
func periodFrame(f runtime.Frame) bool {
	return isPeriodFrame(f.Function) || rtDir != "/" && strings.HasPrefix(f.File, rtDir)
}

// withoutPeriod drops the program counters whose outermost frame is one of
// Period's runtime (a pc stands for several frames where calls were
// inlined: the outermost is the function the code belongs to).
func withoutPeriod(pcs []uintptr) []uintptr {
	out := pcs[:0]
	for _, pc := range pcs {
		frames := runtime.CallersFrames([]uintptr{pc})
		var last runtime.Frame
		for {
			f, more := frames.Next()
			last = f
			if !more {
				break
			}
		}
		if !periodFrame(last) {
			out = append(out, pc)
		}
	}
	return out
}

// Stack is runtime.Stack(buf, all) as go test would show it. Under
// control, Period's frames are left out; a goroutine waiting in t.Run (the
// parent of a subtest, which waits in TRun) shows testing.(*T).Run, as it
// would; neither the helper goroutine TRun starts nor the driver's is
// listed; and a goroutine the program started is "created by" the function
// of its go statement.
// Code that lists goroutines and filters out the test's own (pion's
// CheckRoutines, goleak-like helpers, matching "testing.(*T).Run(") then
// sees the program's goroutines only.
func Stack(buf []byte, all bool) int {
	e := eng
	if !e.active.Load() && !e.prelude.Load() {
		return runtime.Stack(buf, all)
	}
	if all {
		e.awaitRegistered()
	}
	raw := runtimeStack(all)
	e.mu.Lock()
	creators := map[string]string{} // goroutine id -> "created by" line
	entries := map[string]string{}  // goroutine id -> frame of its function, not started yet
	states := map[string]string{}   // goroutine id -> the state go test would show, parked in the model
	e.byGoid.each(func(id int64, g *gstate) {
		if st := e.shownState(g); st != "" {
			states[strconv.FormatInt(id, 10)] = st
		}
		if g.entry != nil {
			pc := reflect.ValueOf(g.entry).Pointer()
			if f := runtime.FuncForPC(pc); f != nil {
				file, line := f.FileLine(pc)
				entries[strconv.FormatInt(id, 10)] = f.Name() + "()\n\t" + file + ":" + strconv.Itoa(line)
			}
		}
		if g.creator != 0 {
			if f := userFrame(g.creator); f.Function != "" {
				creators[strconv.FormatInt(id, 10)] = "created by " + f.Function + "\n\t" + f.File + ":" + strconv.Itoa(f.Line)
			}
		}
	})
	e.mu.Unlock()
	var blocks []string
	for _, b := range strings.Split(string(raw), "\n\n") {
		if v, ok := goStackView(b, creators, entries, states); ok {
			blocks = append(blocks, v)
		}
	}
	if !all && len(blocks) == 0 {
		// The caller's own stack is never left out: code reads its
		// goroutine's id from the first line (x/net/http2's
		// curGoroutineID panicked on an empty dump, in a goroutine whose
		// creator the view does not know).
		return copy(buf, raw)
	}
	return copy(buf, strings.Join(blocks, "\n\n")+"\n")
}

// driverFrame is in the frame of the test function Period's driver runs
// every test from (instrument.DriverTest).
var driverFrame = "." + strings.TrimSuffix(driverPrefix, "/") + "("

// awaitRegistered waits, for at most a second, until every goroutine
// spawned has run far enough to be known by its id: before, its block of
// the dump has only Period's frames and would be dropped, where go test
// lists a goroutine from its go statement on (fortytw2/leaktest's own test
// checked at once for the goroutine it had just started, and missed it).
func (e *engine) awaitRegistered() {
	deadline := time.Now().Add(time.Second)
	for {
		e.mu.Lock()
		n := e.unregistered
		e.mu.Unlock()
		if n <= 0 || time.Now().After(deadline) {
			return
		}
		runtime.Gosched()
	}
}

// goStackView rewrites one goroutine's block of a stack dump (see Stack);
// false drops it.
func goStackView(b string, creators, entries, states map[string]string) (string, bool) {
	lines := strings.Split(strings.TrimRight(b, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "goroutine ") {
		return b, b != ""
	}
	id, _, _ := strings.Cut(strings.TrimPrefix(lines[0], "goroutine "), " ")
	out := []string{lines[0]}
	if st, ok := states[id]; ok {
		out[0] = waitingState(out[0], st)
	}
	ownFrames := false // frames of Period's were left out
	for i := 1; i < len(lines); i++ {
		fn := lines[i]
		file := ""
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
			file = lines[i+1]
			i++
		}
		switch {
		case strings.HasPrefix(fn, "created by "):
			if entry, ok := entries[id]; ok && len(out) == 1 {
				// Not started: go test shows it runnable, in its function.
				out[0] = waitingState(out[0], "runnable")
				out = append(out, entry)
			}
			if ownFrames && onlyRuntime(out[1:]) {
				// Only Period's code runs in it: a timer of the engine
				// (time.AfterFunc's goroutine is created by time.goFunc).
				// Kept, it would be a goroutine without frames, which no
				// dump of go test has (goleak's parser panics on it), or
				// with the runtime's alone (an engine's decision that
				// reads its own id through runtime.Stack).
				return "", false
			}
			if !isPeriodFrame(fn) {
				out = append(out, fn, file)
			} else if c, ok := creators[id]; ok {
				out = append(out, c)
			} else {
				return "", false // Period's own (TRun's helper, a timer of the engine)
			}
		case strings.HasPrefix(fn, "github.com/period-dev/period/rt.TRun("), strings.HasPrefix(fn, "github.com/period-dev/period/rt.runPrelude("):
			// Both wait for a subtest that a helper goroutine runs.
			if len(out) == 1 {
				// On top, as t.Run waits: in a channel receive (goleak
				// ignores a t.Run parent only in that state).
				out[0] = waitingState(out[0], "chan receive")
			}
			out = append(out, "testing.(*T).Run(...)", "\t"+runtime.GOROOT()+"/src/testing/testing.go:0")
		case strings.HasPrefix(fn, "github.com/period-dev/period/rt.TParallel("):
			// A paused parallel subtest, as t.Parallel shows it.
			if len(out) == 1 {
				out[0] = waitingState(out[0], "chan receive")
			}
			out = append(out, "testing.(*T).Parallel(...)", "\t"+runtime.GOROOT()+"/src/testing/testing.go:0")
		case isPeriodFrame(fn):
			ownFrames = true
		case strings.Contains(fn, driverFrame):
			// The driver's goroutine waits in t.Run for the test, where go
			// test has the main goroutine (listed too) wait: it is Period's.
			return "", false
		default:
			out = append(out, fn)
			if file != "" {
				out = append(out, file)
			}
		}
	}
	return strings.Join(out, "\n"), true
}

// shownState is the state go test's dump would show for g, parked in the
// model (where the runtime shows Period's own wait): blocked in its
// operation ("select", "chan receive", "sync.Mutex.Lock"...), or
// "runnable" when it could go on and waits for its turn. Code that waits
// until goroutines are parked in a select by reading the dump
// (caddyserver/certmagic's handshake tests) polled for ever. "" leaves
// the header alone. e.mu is held.
func (e *engine) shownState(g *gstate) string {
	if g.status != gParked {
		return ""
	}
	op := g.p.op
	if op == strategy.OpSleep && e.clock.now < g.p.wakeAt {
		return "sleep"
	}
	if !g.blocked {
		return "runnable"
	}
	switch op {
	case strategy.OpSend:
		return "chan send"
	case strategy.OpRecv:
		return "chan receive"
	case strategy.OpSelect:
		return "select"
	case strategy.OpLock, strategy.OpOnce:
		return "sync.Mutex.Lock"
	case strategy.OpRLock:
		return "sync.RWMutex.RLock"
	case strategy.OpWGWait:
		return "sync.WaitGroup.Wait"
	case strategy.OpCondWait:
		return "sync.Cond.Wait"
	}
	return ""
}

// waitingState rewrites a dump's header "goroutine N [state, 2 minutes]:"
// to show the given state, keeping how long it has waited.
func waitingState(header, state string) string {
	open, end := strings.IndexByte(header, '['), strings.LastIndexByte(header, ']')
	if open < 0 || end < open {
		return header
	}
	_, since, _ := strings.Cut(header[open+1:end], ",")
	if since != "" {
		state += "," + since
	}
	return header[:open+1] + state + header[end:]
}

// DebugStack is debug.Stack(): the calling goroutine's stack as Stack
// shows it, with debug.Stack's own frame on top where this function's
// frames (inlined into the caller's name) would show (gorilla/handlers'
// recovery test looks for "runtime/debug.Stack" in its log).
func DebugStack() []byte {
	st := fitStack(func(b []byte) int { return Stack(b, false) })
	lines := strings.SplitAfter(string(st), "\n")
	if len(lines) < 3 {
		return st
	}
	top := 1
	for top+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[top+1]), rtDir) {
		top += 2
	}
	real := strings.SplitAfter(string(debug.Stack()), "\n")
	if len(real) < 3 {
		return st
	}
	return []byte(lines[0] + real[1] + real[2] + strings.Join(lines[top:], ""))
}

// rtDir is the directory of this package's source, as frames name it.
var rtDir = func() string {
	_, file, _, _ := runtime.Caller(0)
	return file[:strings.LastIndexByte(file, '/')+1]
}()

// runtimeStack is the whole of runtime.Stack(buf, all), however long.
func runtimeStack(all bool) []byte {
	return fitStack(func(b []byte) int { return runtime.Stack(b, all) })
}

// fitStack calls stack with a buffer twice as large until what it writes
// fits.
func fitStack(stack func([]byte) int) []byte {
	buf := make([]byte, 64<<10)
	for {
		n := stack(buf)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// onlyRuntime reports whether a goroutine block's kept lines (function and
// file lines) name the runtime's functions only.
//
// A lock's frames count as the runtime's: an engine timer waiting for
// e.mu, held by the listing itself, shows sync.(*Mutex).Lock and
// internal/sync's frames above Period's (introspect's
// TestSubtestListsGoroutines saw one in a full test run).
func onlyRuntime(lines []string) bool {
	for _, l := range lines {
		if !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "runtime.") && !strings.HasPrefix(l, "runtime/") && !lockFrame(l) {
			return false
		}
	}
	return true
}

// lockFrame reports whether a dump's function line is in sync.Mutex's or
// sync.RWMutex's lock path.
func lockFrame(l string) bool {
	return strings.HasPrefix(l, "internal/sync.") || strings.HasPrefix(l, "sync.(*Mutex).") || strings.HasPrefix(l, "sync.(*RWMutex).")
}
