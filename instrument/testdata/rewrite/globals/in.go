// rewrite: globals
package globals

import (
	"sync"
	_ "unsafe"
)

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

// rodata is the runtime's, in read-only memory (gofiber/fiber): not this
// package's state, so the snapshot leaves it out.
//
//go:linkname rodata runtime.rodata
var rodata byte

func InRodata(p *byte) bool { return p == &rodata }
