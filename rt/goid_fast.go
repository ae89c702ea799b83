//go:build go1.21 && (amd64 || arm64)

package rt

import "unsafe"

// getg returns the current goroutine's runtime descriptor (assembly).
func getg() unsafe.Pointer

const haveGetg = true
