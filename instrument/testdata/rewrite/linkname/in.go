package linkname

import (
	_ "unsafe"
)

// now is the runtime's wall and monotonic clock, read without time.Time.
//
//go:noescape
//go:linkname now time.now
func now() (sec int64, nsec int32, mono int64)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

// Now is a fast clock.
func Now() uint64 {
	sec, nsec, _ := now()
	return uint64(sec)*1e9 + uint64(nsec)
}

// Mono is a fast monotonic clock.
func Mono() int64 { return nanotime() }
