//go:build go1.21

package trace

import (
	"os"
	"path/filepath"
	"testing"
)

// Bug locations are written like key-point sites: relative to the root of
// the file's module, whatever the depth of its package.
func TestModuleLoc(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	for _, f := range []string{"go.mod", "nested/go.mod"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755)
		if err := os.WriteFile(filepath.Join(root, f), []byte("module m\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct{ in, want string }{
		{filepath.Join(root, "x.go") + ":3", "x.go:3"},
		{filepath.Join(root, "a", "b", "c.go") + ":12", "a/b/c.go:12"},
		{filepath.Join(root, "nested", "p", "p.go") + ":7", "p/p.go:7"}, // its own module
		{filepath.Join(outside, "q", "q.go") + ":5", "q/q.go:5"},        // in no module
		{"p/p.go:9", "p/p.go:9"},                                        // already relative
		{filepath.Join(root, "a", "c.go"), "a/c.go"},                    // no line
	}
	for _, c := range cases {
		if got := ModuleLoc(c.in); got != c.want {
			t.Errorf("ModuleLoc(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
