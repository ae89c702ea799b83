//go:build go1.21

package rt

import (
	"flag"
	"os"
	"testing"
)

// TestMain checks, at every decision of every run of the package's tests
// (child processes included), that the incremental enabled set equals a
// full pass over the goroutines. Benchmarks measure the engine without it.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		verifyReady = true
	}
	os.Exit(m.Run())
}
