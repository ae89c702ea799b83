package atomics

import (
	"sync"
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

func build(n int) map[string]int { return map[string]int{"n": n} }

// Arguments that run code come before the key point: the value is built,
// then published.
func Published(s *stats, m *sync.Map, ch chan int64) {
	s.v.Store(build(1))
	s.n.Add(<-ch)
	atomic.AddInt64(&hits, int64(len(build(2))))
	atomic.CompareAndSwapInt32(&s.old, 2, int32(len(build(3))))
	s.n.CompareAndSwap(<-ch, 1)
	s.p.Store(new(int))
	x := 2
	s.p.Store(&x)
	m.Store("k", build(4))
	s.ok.Store(len(build(5)) > 0)
	s.n.Add(1 << len(build(6)))
}
