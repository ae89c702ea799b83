//go:build go1.21

package rt

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
)

// Panic and stuck-hang locations are module-relative, like key-point sites
// and the other bug kinds' locations (this file is rt/loc_test.go of
// Period's module), not the last two elements of the path.
func TestPanicAndStuckLocationsAreModuleRelative(t *testing.T) {
	_, file, line, _ := runtime.Caller(0)
	want := fmt.Sprintf("rt/loc_test.go:%d", line)
	goroot := filepath.ToSlash(runtime.GOROOT())
	stack := fmt.Sprintf(`goroutine 7 [running]:
github.com/period-dev/period/rt.(*engine).exit(0xc000010000)
	/elsewhere/rt/engine.go:600 +0x1
panic({0x1, 0x2})
	%[1]s/src/runtime/panic.go:783 +0x132
internal/poll.(*FD).Read(0xc000100000)
	%[1]s/src/internal/poll/fd_unix.go:165 +0x27
example.com/m/p.F(...)
	%[2]s:%[3]d +0x1d
`, goroot, file, line)
	// A stuck goroutine is reported where the user's code called the
	// standard library; a panic at its innermost frame outside the runtime.
	if got := panicLocation([]byte(stack)); got != "internal/poll/fd_unix.go:165" {
		t.Errorf("panicLocation = %q, want internal/poll/fd_unix.go:165 (GOROOT/src is module std)", got)
	}
	if got := panicLocation(bytes.Replace([]byte(stack), []byte("internal/poll"), []byte("runtime/x"), -1)); got != want {
		t.Errorf("panicLocation = %q, want %q", got, want)
	}
	if got := stuckFrame([]byte(stack)); got != want {
		t.Errorf("stuckFrame = %q, want %q", got, want)
	}
}
