// Package publishnil publishes a shared registry for other goroutines.
package publishnil

import "sync/atomic"

// Registry counts named events.
type Registry struct {
	counts map[string]int
}

var current atomic.Pointer[Registry]

// Reset forgets the published registry.
func Reset() { current.Store(nil) }

// Init publishes the registry before creating its map: a reader that sees
// the pointer in between writes to a nil map and panics.
func Init() {
	r := &Registry{}
	current.Store(r)
	r.counts = make(map[string]int)
}

// InitFixed builds the registry completely and then publishes it.
func InitFixed() {
	r := &Registry{counts: make(map[string]int)}
	current.Store(r)
}

// Record counts one event if a registry has been published; it is called
// only by one goroutine at a time.
func Record(name string) bool {
	r := current.Load()
	if r == nil {
		return false
	}
	r.counts[name]++
	return true
}

// Count returns the count for name.
func Count(name string) int {
	r := current.Load()
	if r == nil {
		return 0
	}
	return r.counts[name]
}
