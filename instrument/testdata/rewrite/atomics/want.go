//line in.go:1
package atomics

import (
	"sync/atomic"
	"unsafe"
)
//line in.go:6
import _prt "github.com/period-dev/period/rt"

var hits int64

type stats struct {
	n    atomic.Int64
	ok   atomic.Bool
	p    atomic.Pointer[int]
	v    atomic.Value
	old  int32
	flag uint32
}

func Atomics(s *stats, local stats) int64 {
	atomic.AddInt64(_prt.Atomic("in.go:20", &hits), 1)
	atomic.StoreInt32(_prt.Atomic("in.go:21", &s.old), 2)
	if atomic.CompareAndSwapUint32(_prt.Atomic("in.go:22", &s.flag), 0, 1) {
		_prt.Atomic("in.go:23", &s.n).Add(1)
	}
	_prt.Atomic("in.go:25", &s.ok).Store(true)
	x := 1
	_prt.Atomic("in.go:27", &s.p).Store(&x)
	_prt.Atomic("in.go:28", &s.v).Store("v")
	_prt.Atomic("in.go:29", &local.n).Add(2)
	var ptr unsafe.Pointer
	atomic.StorePointer(_prt.Atomic("in.go:31", &ptr), unsafe.Pointer(&x))
	return _prt.Atomic("in.go:32", &s.n).Load() + atomic.LoadInt64(_prt.Atomic("in.go:32", &hits)) + _prt.Atomic("in.go:32", &local.n).Load()
}
