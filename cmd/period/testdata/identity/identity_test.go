package identity

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// count runs two incrementing goroutines, so that there are schedules to explore.
func count(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Incr()
		}()
	}
	wg.Wait()
	if c.Value() != 2 {
		t.Errorf("count = %d", c.Value())
	}
}

var lastTempDir string

func TestIdentity(t *testing.T) {
	if !mainRan {
		t.Error("TestMain did not run")
	}
	if testing.Verbose() {
		t.Error("testing.Verbose() is true without -v")
	}
	if _, err := os.Stat("identity_test.go"); err != nil {
		t.Errorf("the test does not run in its package directory: %v", err)
	}
	if v := os.Getenv("IDENTITY_SETENV"); v != "" {
		t.Errorf("t.Setenv of an earlier run is still in effect: %q", v)
	}
	t.Setenv("IDENTITY_SETENV", "1")
	dir := t.TempDir()
	if dir == lastTempDir {
		t.Errorf("t.TempDir() %s is the one of an earlier run", dir)
	}
	lastTempDir = dir
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("t.TempDir() is not a new empty directory: %v %v", entries, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Error(err)
	}
	t.Chdir(dir)
	if _, err := os.Stat("f"); err != nil {
		t.Errorf("t.Chdir did not change the directory: %v", err)
	}
	if err := t.Context().Err(); err != nil {
		t.Errorf("t.Context() is done while the test runs: %v", err)
	}
	count(t)
}

// TestShort fails unless run with -short.
func TestShort(t *testing.T) {
	if !testing.Short() {
		t.Error("testing.Short() is false")
	}
	count(t)
}
