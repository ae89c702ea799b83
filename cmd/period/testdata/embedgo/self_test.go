package embedgo

import (
	"embed"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A test file that embeds itself (wazero's sysfs tests read their own
// source): it stays uninstrumented, so its tests are go test's to run.
//
//go:embed self_test.go
var self embed.FS

func TestNamesAFileAfterItself(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	src, err := self.ReadFile("self_test.go")
	if err != nil || !strings.Contains(string(src), "TestNamesAFileAfterItself") {
		t.Errorf("embedded source: %v", err)
	}
}
