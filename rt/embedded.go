//go:build go1.21

package rt

import (
	"reflect"
	"unsafe"
)

// Embedded returns a pointer to the T reached from x through the struct
// fields numbered by path (go/types' field indices), following pointers on
// the way. The rewriter calls it for a method promoted through a field the
// calling package cannot name: h.Lock() where h's type embeds another
// package's unexported struct that embeds sync.Mutex. The lock reached this
// way is the same object the other package locks, so both go through the
// model. A nil pointer on the path gives nil, which the hook dereferences:
// the call panics as h.Lock() would.
func Embedded[T any](x any, path ...int) *T {
	v := reflect.ValueOf(x)
	for _, i := range path {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return nil
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	if v.Kind() == reflect.Pointer {
		return (*T)(v.UnsafePointer())
	}
	return (*T)(unsafe.Pointer(v.UnsafeAddr()))
}
