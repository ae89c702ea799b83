//go:build go1.21

package rt

import (
	"sync/atomic"
	"unsafe"
)

// OnHeap is p, the address of a new zero-size value (&T{} where T is
// struct{} or holds nothing), kept on the heap, where every zero-size
// allocation has one address. Go leaves the equality of pointers to
// distinct zero-size values unspecified, and the compiler's escape
// analysis decides it: a test that compares such pointers passes under go
// test when both stay on the stack or both go to the heap, and hooks that
// make one of them escape split them (aws/smithy-go's TestAnonymousScheme
// compares its &nopSigner{} with the scheme's). On the heap they are equal
// wherever they come from.
func OnHeap[T any](p *T) *T {
	atomic.StorePointer(&heapSink, unsafe.Pointer(p))
	return p
}

// heapSink is where OnHeap's pointers escape to.
var heapSink unsafe.Pointer
