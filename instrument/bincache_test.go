//go:build unix

package instrument

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// copyTree copies the directory src into dst (a fresh tree the test may edit).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// cachedBuild prepares dir's counter package with the cache and builds it
// into a new binary, which it runs; it returns the slot's binary and its
// checksum after the build.
func cachedBuild(t *testing.T, dir, cache string) (string, string) {
	t.Helper()
	work := t.TempDir()
	tps, err := Prepare(PrepareOptions{Dir: dir, Patterns: []string{"./counter"}, WorkDir: work, BinCache: cache})
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(work, "pkg.test")
	if err := tps[0].Build(context.Background(), bin); err != nil {
		t.Fatal(err)
	}
	if ran, _ := runDriver(t, tps[0], bin); !reflect.DeepEqual(ran, []string{"counter.TestConcurrent", "counter.TestIncrement"}) {
		t.Fatalf("tests that ran: %q", ran)
	}
	slots, _ := filepath.Glob(filepath.Join(cache, "bin", "*", "test"))
	if len(slots) != 1 {
		t.Fatalf("cache slots: %q, want one", slots)
	}
	sum, err := fileSum(slots[0])
	if err != nil {
		t.Fatal(err)
	}
	return slots[0], sum
}

// The binary cache: a second build of an unchanged package reuses the
// slot's binary; an edit relinks it; a
// damaged binary is rebuilt, never run; concurrent builds of one package
// (two period processes) each get a whole binary.
func TestBinCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir, cache := t.TempDir(), t.TempDir()
	copyTree(t, filepath.Join(prepareData, "mod113"), dir)

	slot, first := cachedBuild(t, dir, cache)
	if sum := readString(t, filepath.Join(filepath.Dir(slot), "sum")); sum != first+"\n" {
		t.Fatalf("slot sum %q, binary's %s", sum, first)
	}

	t.Run("hit", func(t *testing.T) {
		if _, again := cachedBuild(t, dir, cache); again != first || again+"\n" != readString(t, filepath.Join(filepath.Dir(slot), "sum")) {
			t.Errorf("an unchanged package got another binary")
		}
	})

	t.Run("edit", func(t *testing.T) {
		src := filepath.Join(dir, "counter", "counter.go")
		data, _ := os.ReadFile(src)
		if err := os.WriteFile(src, append(data, []byte("\nfunc (c *Counter) Twice() { c.Inc(); c.Inc() }\n")...), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, edited := cachedBuild(t, dir, cache); edited == first {
			t.Error("an edited package reused the old binary")
		}
	})

	t.Run("damaged", func(t *testing.T) {
		_, before := cachedBuild(t, dir, cache)
		fi, err := os.Stat(slot)
		if err != nil {
			t.Fatal(err)
		}
		mtime := fi.ModTime()
		// Damage the middle of the binary: its build ID, at the start,
		// still says it is up to date, so only the checksum can tell.
		f, err := os.OpenFile(slot, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte(strings.Repeat("\xff", 4096)), fi.Size()/2); err != nil {
			t.Fatal(err)
		}
		f.Close()
		os.Chtimes(slot, mtime, mtime)
		// cachedBuild runs the binary it gets: a damaged one would crash.
		// Go's links are reproducible: the rebuilt binary is the same.
		if _, after := cachedBuild(t, dir, cache); after != before {
			t.Error("the damaged binary was kept")
		}
		if got, err := fileSum(slot); err != nil || got+"\n" != readString(t, filepath.Join(filepath.Dir(slot), "sum")) {
			t.Errorf("slot sum does not match the rebuilt binary (%v)", err)
		}
	})

	t.Run("concurrent", func(t *testing.T) {
		os.Remove(slot) // both builds must link
		for _, name := range []string{"a", "b"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				cachedBuild(t, dir, cache)
			})
		}
	})
}

func readString(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestDefaultBinCache(t *testing.T) {
	t.Setenv(BinCacheEnv, "off")
	if d, err := DefaultBinCache(); d != "" || err != nil {
		t.Errorf("off: %q, %v", d, err)
	}
	t.Setenv(BinCacheEnv, "relative/dir")
	if _, err := DefaultBinCache(); err == nil {
		t.Error("a relative directory was accepted")
	}
	t.Setenv(BinCacheEnv, "/some/where")
	if d, _ := DefaultBinCache(); d != "/some/where" {
		t.Errorf("got %q", d)
	}
}
