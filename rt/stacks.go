//go:build go1.21

package rt

import (
	"runtime"
	"strconv"
	"strings"
)

// Stacks of parked goroutines, for reports that say in which function a
// blocked or leaked goroutine waits (and for -ignore-leak). Taken only when
// a deadlock or leak is reported: runtime.Stack stops the world.

// frame is a function on a goroutine's stack and the position it is at.
type frame struct{ fn, pos string }

// goroutineFuncs returns, for each of gs, the frames on its stack that are
// the program's (innermost first): Go's runtime and Period's are left out.
func goroutineFuncs(gs []*gstate) map[int64][]frame {
	want := map[int64]bool{}
	for _, g := range gs {
		if g.goid != 0 {
			want[g.goid] = true
		}
	}
	out := map[int64][]frame{}
	if len(want) == 0 {
		return out
	}
	buf := runtimeStack(true)
	for _, block := range strings.Split(string(buf), "\n\n") {
		head, rest, _ := strings.Cut(block, "\n")
		f := strings.Fields(head) // goroutine 23 [chan receive]:
		if len(f) < 2 || f[0] != "goroutine" {
			continue
		}
		id, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || !want[id] {
			continue
		}
		var frames []frame
		lines := strings.Split(rest, "\n")
		for i, line := range lines {
			if line == "" || line[0] == '\t' || strings.HasPrefix(line, "created by ") {
				continue
			}
			fn, pos := stackFunc(line), ""
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
				pos, _, _ = strings.Cut(strings.TrimSpace(lines[i+1]), " +0x")
			}
			if programFunc(fn) {
				frames = append(frames, frame{fn, pos})
			}
		}
		out[id] = frames
	}
	return out
}

// stackFunc strips the arguments from a function line of a stack dump:
// "pkg.(*T).m(0xc000010000, ...)" is pkg.(*T).m.
func stackFunc(line string) string {
	if strings.HasSuffix(line, ")") {
		if i := strings.LastIndexByte(line, '('); i > 0 {
			return line[:i]
		}
	}
	return line
}

// programFunc tells whether fn belongs to the program rather than to Go's
// runtime or Period's.
func programFunc(fn string) bool {
	return fn != "" && !strings.HasPrefix(fn, "runtime.") && !strings.HasPrefix(fn, "github.com/period-dev/period/rt.") &&
		!strings.HasPrefix(fn, "testing.") && !strings.HasPrefix(fn, "panic(")
}

// entryFunc is the function a controlled goroutine was started with by the
// go statement at site. When the statement calls a named function, the
// outermost program frame is the closure the instrumenter made of it,
// still at the statement's line: the frame it calls is the one started.
func entryFunc(frames []frame, site string) string {
	n := len(frames)
	if n == 0 {
		return ""
	}
	if n >= 2 && site != "" && (frames[n-1].pos == site || strings.HasSuffix(frames[n-1].pos, "/"+site)) {
		return frames[n-2].fn
	}
	return frames[n-1].fn
}

// funcsOf lists the functions of frames.
func funcsOf(frames []frame) []string {
	out := make([]string, len(frames))
	for i, f := range frames {
		out[i] = f.fn
	}
	return out
}

// funcName resolves a pc recorded at a go statement: the return address of
// the call to Go. That address is the first instruction after the call,
// which may belong to a function inlined there (the `go` statement followed
// by bus.Wait() named Wait as the creator, `go f(); <-ch` named rt.Recv):
// CallersFrames resolves it as a return address, to the call itself.
func funcName(pc uintptr) string {
	if pc == 0 {
		return ""
	}
	return userFrame(pc).Function
}

// userFrame is the frame of return pc, past the hooks of rt inlined there:
// rt.Go is small enough to be inlined into the function with the go
// statement, and the innermost frame of its call site is then rt.Go's
// (goleak's internal/stack test saw its goroutines "created by rt.Go").
func userFrame(pc uintptr) runtime.Frame {
	frames := runtime.CallersFrames([]uintptr{pc})
	for {
		f, more := frames.Next()
		if !isPeriodFrame(f.Function) || !more {
			return f
		}
	}
}
