//go:build go1.21

// Package rt is Period's controlled runtime: the hooks that instrumented code
// calls in place of goroutine, channel, sync, atomic, time and shared-memory
// operations, and the engine that turns each hook into a scheduling point.
//
// Every hook takes the key point's source position ("file.go:line") as its
// first argument; the instrumenter passes it as a string literal. Outside a
// controlled run (or from a goroutine the engine does not control) every hook
// performs the plain operation, so instrumented code behaves as the original.
//
// The files of this package carry a go1.21 build line: instrumented modules
// that declare older Go versions import it, and generic hooks need go1.21.
package rt
