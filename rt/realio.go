//go:build go1.21

package rt

import (
	"io/fs"
	"os"
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
	}
	e.mu.Unlock()
	return v
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
