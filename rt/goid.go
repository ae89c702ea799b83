//go:build go1.21

package rt

import (
	"bytes"
	"runtime"
	"strconv"
	"unsafe"
)

// Every hook must know which goroutine calls it. runtime.Stack tells, but
// costs microseconds; reading the id out of the runtime's goroutine descriptor
// costs about a nanosecond. The offset of the id is found at start-up by
// comparing with runtime.Stack on two goroutines, so a layout change in a
// future Go release falls back to the slow path instead of misbehaving.
var goidOffset = calibrateGoid()

func slowGoid() int64 {
	var b [64]byte
	n := runtime.Stack(b[:], false)
	f := bytes.Fields(b[:n])
	if len(f) < 2 {
		return -1
	}
	id, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		return -1
	}
	return id
}

func offsetsOf(id int64) []uintptr {
	g := getg()
	if g == nil {
		return nil
	}
	var offs []uintptr
	for off := uintptr(0); off < 512; off += 8 {
		if *(*int64)(unsafe.Add(g, off)) == id {
			offs = append(offs, off)
		}
	}
	return offs
}

func calibrateGoid() uintptr {
	if !haveGetg {
		return 0
	}
	a := offsetsOf(slowGoid())
	ch := make(chan []uintptr)
	go func() { ch <- offsetsOf(slowGoid()) }()
	b := <-ch
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return x
			}
		}
	}
	return 0
}

// goid returns the current goroutine's id.
func goid() int64 {
	if goidOffset == 0 {
		return slowGoid()
	}
	return *(*int64)(unsafe.Add(getg(), goidOffset))
}
