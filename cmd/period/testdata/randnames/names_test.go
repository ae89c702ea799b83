// Package randnames names its files with math/rand and leaves them behind,
// as badger's table tests do (rand.Uint32() + ".sst" in the temporary
// directory): under go test each process draws new numbers, so no test
// meets another's file. Under Period each test's runs draw their own.
package randnames

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

func createTable(t *testing.T) {
	name := filepath.Join(os.TempDir(), fmt.Sprintf("%d.tbl", rand.Uint32()))
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close() // left behind
}

func TestFirstTable(t *testing.T)  { createTable(t) }
func TestSecondTable(t *testing.T) { createTable(t) }
func TestThirdTable(t *testing.T)  { createTable(t) }
