//go:build go1.21 && !amd64 && !arm64

package rt

import "unsafe"

func getg() unsafe.Pointer { return nil }

const haveGetg = false
