//line in.go:1
package misc

import (
	"bytes"
	"sync"
	"time"
	"unsafe"
)
//line in.go:8
import _prt "github.com/period-dev/period/rt"

type Stack[T any] struct {
	mu    sync.Mutex
	items []T
}

func (s *Stack[T]) Push(v T) {
	_prt.Lock("in.go:16", &s.mu)
	defer _prt.Unlock("in.go:17", &s.mu)
	*_prt.W("in.go:18", &s.items) = append(*_prt.R("in.go:18", &s.items), v)
}

func Pop[T any](s *Stack[T]) (T, bool) {
	_prt.Lock("in.go:22", &s.mu)
	defer _prt.Unlock("in.go:23", &s.mu)
	var zero T
	if len(*_prt.R("in.go:25", &s.items)) == 0 {
		return zero, false
	}
	v := *_prt.R("in.go:28", &(*_prt.R("in.go:28", &s.items))[len(*_prt.R("in.go:28", &s.items))-1])
	*_prt.W("in.go:29", &s.items) = (*_prt.R("in.go:29", &s.items))[:len(*_prt.R("in.go:29", &s.items))-1]
	return v, true
}

func Set[M ~map[string]int](m M) { m["a"] = 1 }

func Zero[T any](p *T) { *_prt.W("in.go:35", p) = *_prt.R("in.go:35", new(T)) }

type Named chan float64

type RW interface {
	sync.Locker
	RLock()
	RUnlock()
}

type iface interface{ M() int }

var (
	hook  = func() {}
	count int
	gbuf  bytes.Buffer
	garr  [4]int
	locks [4]sync.Mutex
	any1  iface
	start = _prt.Now()
	init1 = func() int { return _prt.Recv("in.go:55", make(chan int, 1)) }
)

type holder struct{ mu sync.Mutex }

func Misc(ch chan int, chch chan chan int, n Named, rw RW, m map[string]*holder, i int) (int, int) {
	{
//line in.go:61
  _prt0 := *_prt.R("in.go:61", &hook)
//line in.go:61
  _prt.Go("in.go:61", func() { _prt0() })
//line in.go:61
 }
			{
//line in.go:62
  _prt1 := &Stack[int]{}
//line in.go:62
  _prt.Go("in.go:62", func() { Pop(_prt1) })
//line in.go:62
 }
			_prt.Send("in.go:63", n, 1)
			{
				_prt3 := n
				_prt4, _prt5 := ch, _prt.Recv("in.go:66", ch)
				_prt6 := (_prt.Recv("in.go:67", chch))
//line in.go:64
  _prt2 := _prt.Select("in.go:64", false, _prt.SendCase(_prt3), _prt.SendCase(_prt4), _prt.SendCase(_prt6))
//line in.go:64
  select {
		case _prt.SendIf(_prt2, 0, _prt3) <- 2:
//line in.go:65
   _prt.SelectDone(_prt2)
		case _prt.SendIf(_prt2, 1, _prt4) <- _prt5:
//line in.go:66
   _prt.SelectDone(_prt2)
		case _prt.SendIf(_prt2, 2, _prt6) <- 3:
//line in.go:67
   _prt.SelectDone(_prt2)
					_prt.Go("in.go:68", func() { *_prt.W("in.go:68", _prt.R("in.go:68", &count))++ })
		}
//line in.go:69
 }
	f := float64(*_prt.R("in.go:70", &count))
	_ = f
	for k := range *_prt.R("in.go:72", &count) {
		_ = k
	}
	switch {
	case _prt.Recv("in.go:76", ch) == 1:
	}
	if v := _prt.Recv("in.go:78", ch); v > 0 {
		goto end
	}
	_ = map[int]int{*_prt.R("in.go:81", &count): *_prt.R("in.go:81", &count)}
	_ = garr[:]
	gbuf.Reset()
	_ = cap(gbuf.Bytes()) + len(ch)
	_prt.LockerLock("in.go:85", rw)
	_prt.LockerUnlock("in.go:86", rw)
	_prt.Lock("in.go:87", &locks[i])
	_prt.Unlock("in.go:88", &locks[i])
	_prt.Lock("in.go:89", &_prt.MapR("in.go:89", m)["k"].mu)
	_prt.Unlock("in.go:90", &_prt.MapR("in.go:90", m)["k"].mu)
	_ = unsafe.Sizeof(garr)
	_ = (*_prt.R("in.go:92", &any1)).M()
	{
//line in.go:93
  _prt7 := _prt.Tick("in.go:93", time.Second)
//line in.go:93
  for t, _prt8 := _prt.Recv2("in.go:93", _prt7); _prt8; t, _prt8 = _prt.Recv2("in.go:93", _prt7) {
			_ = t
			break
		}
//line in.go:93
 }

//line in.go:97
 _prt.Send("in.go:97", ch, func() int { *_prt.W("in.go:97", _prt.R("in.go:97", &count))--; return *_prt.R("in.go:97", &count) }())
	_prt.Close("in.go:98", chan<- int(ch))
end:
	return _prt.Recv("in.go:100", ch), _prt.Recv("in.go:100", ch)
}
