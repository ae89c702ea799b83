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

//go:noinline
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

// runtime.g begins with its stack's bounds, lo and hi (every Go release
// since 1.4); stackBoundsOK checks that at start-up on a variable known
// to be on the stack and on one known to be on the heap. A layout change
// turns the check off: stack addresses are then recorded as any other
// (TestStackBoundsKnown fails on such a Go release, before users meet it).
var stackBoundsOK = checkStackBounds()

var heapProbe = new(int64)

func checkStackBounds() bool {
	if !haveGetg || getg() == nil {
		return false
	}
	var local int64
	b := (*[2]uintptr)(getg())
	a := uintptr(unsafe.Pointer(&local))
	h := uintptr(unsafe.Pointer(heapProbe))
	return b[0] < b[1] && b[1]-b[0] <= 1<<30 && a >= b[0] && a < b[1] && (h < b[0] || h >= b[1])
}

// onStack reports whether p is in the calling goroutine's stack.
func onStack(p unsafe.Pointer) bool {
	if !stackBoundsOK {
		return false
	}
	b := (*[2]uintptr)(getg())
	a := uintptr(p)
	return a >= b[0] && a < b[1]
}
