//line in.go:1
// Package comments checks that comments and directives stay where they were.
package comments

import "sync"
//line in.go:4
import _prt "github.com/period-dev/period/rt"

// mu guards n.
var mu sync.Mutex

// n is guarded by mu.
var n int

// Inc increments n.
//line in.go:12
//
//line in.go:12
//go:noinline
//line in.go:15
func Inc() {
	_prt.Lock("in.go:16", &mu)                    // lock
	*_prt.W("in.go:17", _prt.R("in.go:17", &n))++ /* count */
	_prt.Unlock("in.go:18", &mu)
}
