// Package sharedfile: two tests use the same file name in the package
// directory, as tests of databases and loggers do ("data.db"). go test runs
// them one after the other; Period's -p runs their processes at once, so
// one can see the other's file. A verdict that only this causes must not
// be reported: its confirming replay runs alone in the directory.
package sharedfile

import (
	"os"
	"testing"
)

func useFile(t *testing.T, mark string) {
	if err := os.WriteFile("shared.txt", []byte(mark), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove("shared.txt")
	for i := 0; i < 300; i++ {
		data, err := os.ReadFile("shared.txt")
		if err != nil || string(data) != mark {
			t.Fatalf("read %q (%v), wrote %q", data, err, mark)
		}
	}
}

func TestA(t *testing.T) { useFile(t, "A") }

func TestB(t *testing.T) { useFile(t, "B") }
