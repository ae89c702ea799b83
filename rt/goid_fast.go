//go:build go1.21 && (amd64 || arm64)

package rt

import "unsafe"

// getg returns the current goroutine's runtime descriptor (assembly).
func getg() unsafe.Pointer

const haveGetg = true

// hidden: see R. No split: the stack must not move while the address is
// held as a number.
//
//go:nosplit
func hidden(p unsafe.Pointer) unsafe.Pointer {
	x := uintptr(p)
	return *(*unsafe.Pointer)(unsafe.Pointer(&x))
}
