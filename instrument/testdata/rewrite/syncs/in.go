package syncs

import "sync"

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
	c.Lock()
	defer c.Unlock()
	c.n++
}

func (c *counter) Value() int { return c.n }

func Locks(c *counter, o outer, l sync.Locker) bool {
	var mu sync.Mutex
	mu.Lock()
	mu.Unlock()
	c.mu.RLock()
	c.mu.RUnlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	o.Lock()
	o.Unlock()
	l.Lock()
	l.Unlock()
	r := c.mu.RLocker()
	r.Lock()
	r.Unlock()
	lock := mu.Lock
	lock()
	unlock := (*sync.Mutex).Unlock
	unlock(&mu)
	if c.mu.TryRLock() {
		c.mu.RUnlock()
	}
	return mu.TryLock()
}

func Groups() {
	var wg sync.WaitGroup
	var once sync.Once
	wg.Add(2)
	go func() {
		defer wg.Done()
		once.Do(func() {})
	}()
	wg.Go(func() {})
	wg.Wait()
	f := sync.OnceFunc(func() {})
	f()
	g := sync.OnceValue(func() int { return 1 })
	h := sync.OnceValues[int, error](func() (int, error) { return g(), nil })
	_, _ = h()
}

func Conds(m *sync.Map) {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	c.L.Lock()
	c.Wait()
	c.Signal()
	c.Broadcast()
	c.L.Unlock()
	m.Store("k", 1)
	v, ok := m.Load("k")
	_, _ = v, ok
	var local sync.Map
	local.Range(func(k, v any) bool { return true })
}

func Pools(p *sync.Pool) {
	var local sync.Pool
	b := p.Get()
	local.Put(b)
	get := p.Get
	_ = get
}

// A struct embedding the sync.Locker interface: its promoted Lock and
// Unlock are calls through the interface, spelled out.
type lockedHalf struct {
	sync.Locker
	n int
}

type twoHalves struct{ in, out lockedHalf }

func EmbeddedLocker(s *twoHalves, get func() *twoHalves) {
	s.in.Lock()
	defer s.in.Unlock()
	get().out.Lock()
	release := s.out.Unlock
	release()
}

// Read locks through the program's own interface (syncthing's
// lib/sync.RWMutex), called and used as values.
type rwMutex interface {
	Lock()
	Unlock()
	RLock()
	RUnlock()
}

func ReadLockIface(m rwMutex) {
	m.RLock()
	defer m.RUnlock()
	unlock := m.RUnlock
	_ = unlock
}
