//line in.go:1
package syncs

import "sync"
//line in.go:3
import _prt "github.com/period-dev/period/rt"
//line in.go:3
import _prtsync "sync"

type counter struct {
	sync.Mutex
	mu sync.RWMutex
	n  int
}

type inner struct{ sync.Mutex }

type outer struct {
	*inner
}

func (c *counter) Inc() {
	_prt.Lock("in.go:18", &c.Mutex)
	defer _prt.Unlock("in.go:19", &c.Mutex)
	*_prt.W("in.go:20", _prt.R("in.go:20", &c.n))++
}

func (c *counter) Value() int { return *_prt.R("in.go:23", &c.n) }

func Locks(c *counter, o outer, l sync.Locker) bool {
	var mu sync.Mutex
	_prt.Lock("in.go:27", &mu)
	_prt.Unlock("in.go:28", &mu)
	_prt.RLock("in.go:29", &c.mu)
	_prt.RUnlock("in.go:30", &c.mu)
	_prt.RWLock("in.go:31", &c.mu)
	defer _prt.RWUnlock("in.go:32", &c.mu)
	_prt.Lock("in.go:33", &o.inner.Mutex)
	_prt.Unlock("in.go:34", &o.inner.Mutex)
	_prt.LockerLock("in.go:35", l)
	_prt.LockerUnlock("in.go:36", l)
	r := _prt.RLocker(&c.mu)
	_prt.LockerLock("in.go:38", r)
	_prt.LockerUnlock("in.go:39", r)
	lock := func(_prt0 *_prtsync.Mutex) func() { return func() { _prt.Lock("in.go:40", _prt0) } }(&mu)
	lock()
	unlock := func(_prt1 *_prtsync.Mutex) { _prt.Unlock("in.go:42", _prt1) }
	unlock(&mu)
	if _prt.TryRLock("in.go:44", &c.mu) {
		_prt.RUnlock("in.go:45", &c.mu)
	}
	return _prt.TryLock("in.go:47", &mu)
}

func Groups() {
	var wg sync.WaitGroup
	var once sync.Once
	_prt.WGAdd("in.go:53", &wg, 2)
	_prt.Go("in.go:54", func() {
		defer _prt.WGDone("in.go:55", &wg)
		_prt.OnceDo("in.go:56", &once, func() {})
	})
	_prt.WGGo("in.go:58", &wg, func() {})
	_prt.WGWait("in.go:59", &wg)
	f := _prt.OnceFunc(func() {})
	f()
	g := _prt.OnceValue(func() int { return 1 })
	h := _prt.OnceValues[int, error](func() (int, error) { return g(), nil })
	_, _ = h()
}

func Conds(m *sync.Map) {
	var mu sync.Mutex
	c := _prt.NewCond(&mu)
	_prt.LockerLock("in.go:70", c.L)
	_prt.CondWait("in.go:71", c)
	_prt.CondSignal("in.go:72", c)
	_prt.CondBroadcast("in.go:73", c)
	_prt.LockerUnlock("in.go:74", c.L)
	_prt.SyncMap("in.go:75", m).Store("k", 1)
	v, ok := _prt.SyncMap("in.go:76", m).Load("k")
	_, _ = v, ok
	var local sync.Map
	_prt.SyncMap("in.go:79", &local).Range(func(k, v any) bool { return true })
}

func Pools(p *sync.Pool) {
	var local sync.Pool
	b := _prt.PoolGet("in.go:84", p)
	_prt.PoolPut("in.go:85", &local, b)
	get := func(_prt2 *_prtsync.Pool) func() interface{} {
//line in.go:86
  return func() interface{} { return _prt.PoolGet("in.go:86", _prt2) }
//line in.go:86
 }(p)
			_ = get
}
