// Package comments checks that comments and directives stay where they were.
package comments

import "sync"

// mu guards n.
var mu sync.Mutex

// n is guarded by mu.
var n int

// Inc increments n.
//
//go:noinline
func Inc() {
	mu.Lock() // lock
	n++       /* count */
	mu.Unlock()
}
