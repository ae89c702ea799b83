//go:build go1.21

package strategy

import (
	"fmt"
	"sort"
)

// Factory builds a strategy from its options.
type Factory func(Options) Strategy

var registry = map[string]Factory{}

// Register makes a strategy available by name; strategy files call it from init.
func Register(name string, f Factory) {
	if _, dup := registry[name]; dup {
		panic("strategy: duplicate registration of " + name)
	}
	registry[name] = f
}

// New returns the strategy registered under name.
func New(name string, opts Options) (Strategy, error) {
	f, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("unknown strategy %q (known: %v)", name, Names())
	}
	return f(opts), nil
}

// Names lists the registered strategies in alphabetical order.
func Names() []string {
	var ns []string
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}
