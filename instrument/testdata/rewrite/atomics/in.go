package atomics

import (
	"sync/atomic"
	"unsafe"
)

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
	atomic.AddInt64(&hits, 1)
	atomic.StoreInt32(&s.old, 2)
	if atomic.CompareAndSwapUint32(&s.flag, 0, 1) {
		s.n.Add(1)
	}
	s.ok.Store(true)
	x := 1
	s.p.Store(&x)
	s.v.Store("v")
	local.n.Add(2)
	var ptr unsafe.Pointer
	atomic.StorePointer(&ptr, unsafe.Pointer(&x))
	for !s.ok.CompareAndSwap(false, true) {
	}
	defer atomic.CompareAndSwapInt32(&s.old, 2, 3)
	go s.n.CompareAndSwap(1, 2)
	return s.n.Load() + atomic.LoadInt64(&hits) + local.n.Load()
}
