package p

import "unsafe"

type value struct {
	kind  int
	slice any
}

type rawValue struct {
	kind  int
	slice any
}

var shared value

// storage reads its parameter's field through a converted pointer: the
// pointer goes nowhere, so v stays local (no hook, no escape).
func storage(v value) any {
	return (*rawValue)(unsafe.Pointer(&v)).slice
}

// kindOf reads the whole value the same way.
func kindOf(v value) int {
	return *(*int)(unsafe.Pointer(&v))
}

// leak keeps the pointer: v may be reached from elsewhere.
func leak(v value) *rawValue {
	p := (*rawValue)(unsafe.Pointer(&v))
	return p
}

// global reads a package-level variable through a converted pointer.
func global() any {
	return (*rawValue)(unsafe.Pointer(&shared)).slice
}

// field hands out the address of v's field: v may be reached from
// elsewhere, so its reads are hooked.
func field(v value) (*any, int) {
	return &(*rawValue)(unsafe.Pointer(&v)).slice, v.kind
}
