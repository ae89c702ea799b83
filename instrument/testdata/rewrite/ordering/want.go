//line in.go:1
package ordering

import (
	"sync"
	"sync/atomic"
	"testing"
)
//line in.go:7
import _prt "github.com/period-dev/period/rt"

var (
	result int
	err    error
	active int32
	hits   atomic.Int64
	seen   = map[string]int{}
	cache  sync.Map
)

func get() (int, error) { return 1, nil }

func Ordering(ch chan int, a []int, i int) {
	{
//line in.go:21
  _prt0 := _prt.Recv("in.go:21", ch)
//line in.go:21
  *_prt.W("in.go:21", &result) = _prt0
//line in.go:21
 }
			{
//line in.go:22
  _prt1, _prt2 := get()
//line in.go:22
  *_prt.W("in.go:22", &result), *_prt.W("in.go:22", &err) = _prt1, _prt2
//line in.go:22
 }
			{
//line in.go:23
  _prt3 := _prt.Recv("in.go:23", ch)
//line in.go:23
  _prt.MapW("in.go:23", *_prt.R("in.go:23", &seen))["k"] = _prt3
//line in.go:23
 }
			{
//line in.go:24
  _prt4 := _prt.Recv("in.go:24", ch)
//line in.go:24
  *_prt.W("in.go:24", &a[i]) = _prt4
//line in.go:24
 }
			var ok bool
			{
//line in.go:26
  _prt5, _prt6 := _prt.Recv2("in.go:26", ch)
//line in.go:26
  *_prt.W("in.go:26", &result), ok = _prt5, _prt6
//line in.go:26
 }
			_ = ok
			*_prt.W("in.go:28", &result) = *_prt.R("in.go:28", &result) + _prt.Recv("in.go:28", ch) // not hoisted: a binary expression
			if *_prt.W("in.go:29", &result) = _prt.Recv("in.go:29", ch); *_prt.R("in.go:29", &result) > 0 {
		return
	}
}

func Deferred() {
	atomic.AddInt32(_prt.Atomic("in.go:35", &active), 1)
	defer func() { atomic.AddInt32(_prt.Atomic("in.go:36", &active), -1) }()
	defer func() { _prt.Atomic("in.go:37", &hits).Add(1) }()
	defer func() { _prt.SyncMap("in.go:38", &cache).Delete("k") }()
	_prt.Go("in.go:39", func() { atomic.AddInt32(_prt.Atomic("in.go:39", &active), 2) })
	_prt.Go("in.go:40", func() { _prt.Atomic("in.go:40", &hits).Store(3) })
}

func TestSub(t *testing.T) {
	_prt.TRun("in.go:44", t, "a", func(t *testing.T) {
		*_prt.W("in.go:45", &result) = 1
	})
}
