package slowcleanup

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestSubtestSlowRealCleanup: package testing removes a subtest's
// TempDir after the subtest's function has returned, while its parent
// waits in t.Run. A removal that takes milliseconds (a repository of
// files) made the watchdog let others run beside the parent, which then
// was never resumed: a false hang (goccy/go-json's benchcheck tests).
func TestSubtestSlowRealCleanup(t *testing.T) {
	for i := 0; i < 3; i++ {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			dir := t.TempDir()
			for j := 0; j < 2000; j++ {
				if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(j)), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
