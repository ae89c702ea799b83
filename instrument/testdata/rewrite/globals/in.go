// rewrite: globals
package globals

import "sync"

var (
	a, b = 1, "x"
	_    = 3
	mu   sync.Mutex
	reg  = struct {
		sync.Mutex
		m map[string]int
	}{m: map[string]int{}}
)

var c []int

func Touch() int { return a + len(c) }
