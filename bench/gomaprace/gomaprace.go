// Package gomaprace is a Go-specific pattern: a map written by two goroutines
// without a lock. The runtime only sometimes notices ("concurrent map
// writes"); a race detector sees it in every schedule.
package gomaprace

// Index maps words to the goroutine that saw them last.
type Index struct{ m map[string]int }

// New returns an empty index.
func New() *Index { return &Index{m: make(map[string]int)} }

// Add records word (unsynchronised).
func (x *Index) Add(word string, by int) { x.m[word] = by }

// Len returns the number of words; call it after the writers returned.
func (x *Index) Len() int { return len(x.m) }
