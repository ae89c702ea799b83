// Package publishnil publishes a shared registry for other goroutines.
package publishnil

import "sync"

// Registry counts named events.
type Registry struct {
	counts map[string]int
}

var (
	mu      sync.Mutex
	current *Registry
)

// Reset forgets the published registry.
func Reset() {
	mu.Lock()
	current = nil
	mu.Unlock()
}

// Init publishes the registry in one critical section and makes its map in
// a second one: a reader that takes the lock in between sees a registry
// whose map is nil, and its write panics. There is no data race: every
// access holds mu.
func Init() {
	r := &Registry{}
	mu.Lock()
	current = r
	mu.Unlock()

	mu.Lock()
	r.counts = make(map[string]int)
	mu.Unlock()
}

// InitFixed builds the registry completely and then publishes it.
func InitFixed() {
	r := &Registry{counts: make(map[string]int)}
	mu.Lock()
	current = r
	mu.Unlock()
}

// Record counts one event if a registry has been published.
func Record(name string) bool {
	mu.Lock()
	defer mu.Unlock()
	if current == nil {
		return false
	}
	current.counts[name]++
	return true
}

// Count returns the count for name.
func Count(name string) int {
	mu.Lock()
	defer mu.Unlock()
	if current == nil {
		return 0
	}
	return current.counts[name]
}
