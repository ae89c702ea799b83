//go:build go1.21

package rt

import "runtime"

// Under control a test function is called by Period's engine, and the
// goroutines it starts begin in it: stacks walked by the program (a
// helper that names its caller's package, testify's and go-testdeep's
// traces, which stop at testing.tRunner) would show Period's frames where
// go test shows none. Caller and Callers leave them out, so the test sees
// TestX called by testing.tRunner and a goroutine's function as its first
// frame, as under go test.

// Callers is runtime.Callers(skip, pcs) without Period's frames.
func Callers(skip int, pcs []uintptr) int {
	if !eng.active.Load() {
		return runtime.Callers(skip+1, pcs)
	}
	buf := make([]uintptr, len(pcs)+64)
	n := runtime.Callers(skip+1, buf)
	return copy(pcs, withoutPeriod(buf[:n]))
}

// Caller is runtime.Caller(skip) without Period's frames.
func Caller(skip int) (pc uintptr, file string, line int, ok bool) {
	if !eng.active.Load() {
		return runtime.Caller(skip + 1)
	}
	var buf [64]uintptr
	n := runtime.Callers(skip+2, buf[:])
	pcs := withoutPeriod(buf[:n])
	if len(pcs) == 0 {
		return 0, "", 0, false
	}
	f, _ := runtime.CallersFrames(pcs).Next()
	return f.PC, f.File, f.Line, f.PC != 0
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
		if !isPeriodFrame(last.Function) {
			out = append(out, pc)
		}
	}
	return out
}
