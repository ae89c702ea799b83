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

func Atomics(s *stats) int64 {
	var local stats
	atomic.AddInt64(_prt.Atomic("in.go:21", &hits), 1)
	atomic.StoreInt32(_prt.Atomic("in.go:22", &s.old), 2)
	if atomic.CompareAndSwapUint32(_prt.Atomic("in.go:23", &s.flag), 0, 1) {
		_prt.Atomic("in.go:24", &s.n).Add(1)
	}
	_prt.Atomic("in.go:26", &s.ok).Store(true)
	x := 1
	_prt.Atomic("in.go:28", &s.p).Store(&x)
	_prt.Atomic("in.go:29", &s.v).Store("v")
	_prt.Atomic("in.go:30", &local.n).Add(2)
	var ptr unsafe.Pointer
	atomic.StorePointer(_prt.Atomic("in.go:32", &ptr), unsafe.Pointer(&x))
	return _prt.Atomic("in.go:33", &s.n).Load() + atomic.LoadInt64(_prt.Atomic("in.go:33", &hits)) + _prt.Atomic("in.go:33", &local.n).Load()
}
