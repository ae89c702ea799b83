//go:build go1.21 && (amd64 || arm64)

package rt

import "unsafe"

// getg returns the current goroutine's runtime descriptor (assembly).
func getg() unsafe.Pointer

const haveGetg = true

// hidden returns p out of escape analysis's sight, as the runtime's
// noescape does: a variable whose address only R and W take stays on its
// goroutine's stack, as under go test (a packet buffer that
// testing.AllocsPerRun counts as no allocation: pion/ice), and access
// skips it there (onStack), since no other goroutine can reach a stack.
// No split: the stack must not move while the address is held as a number.
//
//go:nosplit
func hidden(p unsafe.Pointer) unsafe.Pointer {
	x := uintptr(p)
	return *(*unsafe.Pointer)(unsafe.Pointer(&x))
}
