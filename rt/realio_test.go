//go:build go1.21

package rt

import (
	"os"
	"path/filepath"
	"testing"
)

// Only pipes and sockets among files order goroutines: a log line to a
// regular file or a standard stream must not silence a goroutine's races.
func TestFileOrdersGoroutines(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Skip(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, c := range []struct {
		f    *os.File
		want bool
	}{{r, true}, {w, true}, {f, false}, {os.Stderr, false}, {os.Stdout, false}, {nil, false}} {
		if got := eng.fileOrdersGoroutines(c.f); got != c.want {
			t.Errorf("%v: %v, want %v", c.f, got, c.want)
		}
	}
}
