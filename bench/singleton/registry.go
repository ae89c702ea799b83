// Package singleton holds a lazily built, process-wide metrics registry.
package singleton

import "sync"

type Registry struct {
	counters map[string]int
	mu       sync.Mutex
}

func (r *Registry) Inc(name string) {
	r.mu.Lock()
	r.counters[name]++
	r.mu.Unlock()
}

func (r *Registry) Value(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.counters[name]
}

var (
	defaultMu  sync.Mutex
	defaultReg *Registry
)

// DefaultBuggy: double-checked locking that publishes the registry before it is built.
func DefaultBuggy() *Registry {
	if r := defaultReg; r != nil {
		return r
	}
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if defaultReg == nil {
		defaultReg = &Registry{}
		defaultReg.counters = make(map[string]int)
	}
	return defaultReg
}

var (
	once    sync.Once
	onceReg *Registry
)

func Default() *Registry {
	once.Do(func() {
		onceReg = &Registry{counters: make(map[string]int)}
	})
	return onceReg
}

func resetForTest() {
	defaultReg = nil
	once = sync.Once{}
	onceReg = nil
}
