// Package rerun keeps state at package level, as many real packages do: a
// registry of names and a counter. Its tests pass under go test -count=1;
// they were not written to run twice in one process.
package rerun

import (
	"fmt"
	"sync"
)

var (
	mu       sync.Mutex
	registry = map[string]bool{}
	counter  int
)

// Register adds name; a second registration of a name panics.
func Register(name string) {
	mu.Lock()
	defer mu.Unlock()
	if registry[name] {
		panic(fmt.Sprintf("duplicate registration of %q", name))
	}
	registry[name] = true
}

// Incr adds one to the package counter and returns it.
func Incr() int {
	mu.Lock()
	defer mu.Unlock()
	counter++
	return counter
}
