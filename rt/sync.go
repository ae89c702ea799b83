//go:build go1.21

package rt

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/period-dev/period/strategy"
)

func gosched() { runtime.Gosched() }

// The sync primitives are modelled, not called: the engine keeps each
// mutex's, WaitGroup's, Once's and Cond's state per run, keyed by address,
// so that blocking is never real and misuse that Go treats as a fatal error
// (unlock of an unlocked mutex) becomes a reported bug instead of a dead
// process.

type mutexModel struct {
	held     bool
	readers  int
	announce *gstate // RWMutex: a writer that holds the writer slot and waits for readers
	// Who holds it and where they took it, for deadlock reports (stuck.go).
	holder   lockHold
	rholders []lockHold // RWMutex readers
	outside  bool       // held by a goroutine outside control (outsidelock.go)
	outsideR int        // read holds of goroutines outside control
	// Writers outside control waiting for it: controlled goroutines that
	// come later wait for them.
	outsideWait int
	// Goroutines found ready at a waitLock (in the enabled set, not
	// candidates): they are looked at again once held, announce or
	// outsideWait changes (lockChanged). epoch: the run they belong to.
	lockReady []waitRef
	epoch     uint32
	changedAt int // e.rs.decisions at the last change (lockStable)
	// queue holds the goroutines found blocked at Lock, in that order,
	// as Go's semaphore queues them (qEpoch: the run it belongs to).
	queue  []*gstate
	qEpoch uint32
	// mark: the value written into the real mutex's semaphore word while
	// a controlled goroutine holds it, if it lies outside Go's heap
	// (freshHold); heapKnown, heap: whether it does, once looked at.
	mark            uint32
	heapKnown, heap bool
}

type lockHold struct {
	g    *gstate
	site string
}

// rUnlocked forgets one read hold of g (RUnlock may be called by another
// goroutine than the reader's: then the oldest hold goes).
func (mm *mutexModel) rUnlocked(g *gstate) {
	i := 0
	for j, h := range mm.rholders {
		if h.g == g {
			i = j
			break
		}
	}
	if i < len(mm.rholders) {
		mm.rholders = append(mm.rholders[:i], mm.rholders[i+1:]...)
	}
}

type onceModel struct {
	running bool
	done    bool
}

type condModel struct {
	waiters  []*gstate
	signaled map[*gstate]bool
	clocks   map[*gstate]vc // the signaller's clock, for the woken waiter
}

type modelState struct {
	mutex  byObject[byte, mutexModel] // Mutex and RWMutex
	marked []markedMutex              // marks written this run (holdMark)
	wg     byObject[sync.WaitGroup, wgModel]
	once   byObject[sync.Once, onceModel]
	cond   byObject[sync.Cond, condModel]
	pool   map[*sync.Pool]*poolModel
}

func (m *modelState) reset() {
	for _, x := range m.marked {
		x.clear()
	}
	m.marked = m.marked[:0]
	m.mutex = byObject[byte, mutexModel]{}
	m.wg = byObject[sync.WaitGroup, wgModel]{}
	m.once = byObject[sync.Once, onceModel]{}
	m.cond = byObject[sync.Cond, condModel]{}
	m.pool = nil
}

func newMutexModel() *mutexModel { return &mutexModel{} }

func (e *engine) mutexOf(p unsafe.Pointer) *mutexModel {
	return e.models.mutex.get((*byte)(p), newMutexModel)
}

// Memory outside Go's heap that a program allocates itself (modernc.org/
// libc's calloc) can be freed and allocated again while the model holds a
// mutex in it locked: zombiezen.com/go/sqlite frees a connection's unlock
// note with its mutex held, and the next connection's note, zeroed at the
// same address, is locked at once. Go finds that mutex free; a model that
// cannot see the free found it held (a false deadlock). So while a
// controlled goroutine holds a mutex outside the heap, the mutex's own
// semaphore word, which nothing uses meanwhile (goroutines outside control
// take the model's lock before the real one, one at a time, and an
// uncontended mutex never touches it), carries a mark; memory allocated
// anew has lost it, and the mutex is new to the model.

// semaOffset is the semaphore word's offset in a sync.Mutex, and in a
// sync.RWMutex's writer mutex, its first field.
const semaOffset = 4

type markedMutex struct {
	p    unsafe.Pointer
	mark uint32
}

// clear takes the mark away if the memory still has it. At a run's end
// the memory may be gone (freed and unmapped with the mutex held): a fault
// there means nothing is left to clear.
func (x markedMutex) clear() {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() { _ = recover() }()
	if w := (*uint32)(unsafe.Add(x.p, semaOffset)); *w == x.mark {
		*w = 0
	}
}

// freshHold returns the model of the mutex at p for a controlled
// goroutine about to lock it: a new one if the model holds it but the
// memory lost the mark. e.mu is held.
func (e *engine) freshHold(p unsafe.Pointer) *mutexModel {
	mm := e.mutexOf(p)
	if mm.mark != 0 && mm.held && *(*uint32)(unsafe.Add(p, semaOffset)) != mm.mark {
		mm = newMutexModel()
		e.models.mutex[uintptr(p)] = addrEntry[mutexModel]{v: mm}
	}
	return mm
}

// holdMark marks the mutex at p, just locked by a controlled goroutine,
// if it lies outside Go's heap. e.mu is held.
func (e *engine) holdMark(mm *mutexModel, p unsafe.Pointer) {
	if !mm.heapKnown {
		mm.heapKnown, mm.heap = true, inHeap(uintptr(p))
	}
	if mm.heap {
		return
	}
	mm.mark = 0x9e3779b9 ^ uint32(uintptr(p)>>3) | 1
	*(*uint32)(unsafe.Add(p, semaOffset)) = mm.mark
	e.models.marked = append(e.models.marked, markedMutex{p, mm.mark})
}

// releaseMark takes the mark of a mutex released by a controlled
// goroutine away. e.mu is held.
func (e *engine) releaseMark(mm *mutexModel, p unsafe.Pointer) {
	if mm.mark != 0 {
		markedMutex{p, mm.mark}.clear()
		mm.mark = 0
	}
}

// fatal reports misuse that the Go runtime treats as an unrecoverable error,
// then ends the run. e.mu is held; the goroutine unwinds.
func (e *engine) fatal(g *gstate, site, msg string) {
	e.report(bug{kind: "panic", message: fmt.Sprintf("fatal error in goroutine g%s%s: %s", g.path, e.afterTest(), msg), location: site})
	e.stop()
	g.status = gDone
	e.mu.Unlock()
	g.unwind()
}

// keyPoint is a key point whose operation is always ready.
func (e *engine) keyPoint(g *gstate, op strategy.Op, site string, obj unsafe.Pointer) {
	g.p = pending{op: op, site: site, obj: uintptr(obj)}
	e.point(g)
}

func (e *engine) lock(g *gstate, site string, p unsafe.Pointer) {
	mm := e.freshHold(p)
	g.p = pending{op: strategy.OpLock, site: site, obj: uintptr(p), wait: waitLock, mm: mm}
	e.point(g)
	for mm.held {
		// A goroutine outside control took it while g resumed: wait again.
		e.point(g)
	}
	if mm.readers > 0 {
		// RWMutex writer: take the writer slot now (new readers block), then wait for the readers to leave.
		mm.announce = g
		e.lockChanged(mm)
		g.p = pending{op: strategy.OpLock, site: site, obj: uintptr(p), wait: waitReaders, mm: mm}
		e.point(g)
		mm.announce = nil
	}
	mm.held = true
	e.lockChanged(mm)
	mm.holder = lockHold{g, site}
	e.holdMark(mm, p)
	e.dequeueLock(g, mm)
	// Readers that already left (RUnlock) happen before this writer too.
	e.rAcquire(g, p)
	e.acquire(g, p)
}

// Go queues a goroutine that finds a mutex locked (after a short spin) on
// the mutex's semaphore, first come first served; Unlock wakes the first
// of them, which competes only with goroutines arriving at Lock then (a
// woken waiter that loses goes back to the front). So a goroutine queued
// later never takes the lock before one queued earlier. The model keeps
// that order: a goroutine found blocked at Lock joins mm.queue; when the
// mutex is free, only the first of the queue and goroutines not queued
// may take it. The others wait under a key Unlock does not touch, so a
// free mutex does not make the whole herd of its waiters candidates.

// queueKey is the wait key of queued Lock callers behind the first.
func queueKey(obj uintptr) uintptr { return obj | 2 }

// queueLock appends g, found blocked at Lock, to mm's queue. e.mu is held.
func (e *engine) queueLock(g *gstate, mm *mutexModel) {
	if mm.qEpoch != e.rs.epoch {
		clear(mm.queue)
		mm.queue, mm.qEpoch = mm.queue[:0], e.rs.epoch
	}
	if g.lockQ == nil {
		g.lockQ = mm
		mm.queue = append(mm.queue, g)
	}
}

// lockTurn reports whether g may take free mutex mm: it is not queued, or
// it is the first of the queue. e.mu is held.
func (e *engine) lockTurn(g *gstate, mm *mutexModel) bool {
	return g.lockQ != mm || mm.qEpoch != e.rs.epoch || len(mm.queue) == 0 || mm.queue[0] == g
}

// lockQueuedBehind reports whether g waits in mm's queue behind another.
func lockQueuedBehind(g *gstate, mm *mutexModel) bool {
	return g.lockQ == mm && len(mm.queue) > 0 && mm.queue[0] != g
}

// dequeueLock: g took mm; the next of the queue (if any) is looked at
// again, now under the mutex's own key. e.mu is held.
func (e *engine) dequeueLock(g *gstate, mm *mutexModel) {
	if g.lockQ != mm {
		return
	}
	g.lockQ = nil
	// Only the first of the queue may take the lock (lockTurn), so g is
	// that one: slicing it off keeps this O(1) with a thousand waiters
	// (append reuses or regrows the array). Anywhere else, as a guard.
	if i := slices.Index(mm.queue, g); i == 0 {
		mm.queue[0] = nil
		mm.queue = mm.queue[1:]
	} else if i > 0 {
		mm.queue = slices.Delete(mm.queue, i, i+1)
	}
	if len(mm.queue) > 0 {
		if h := mm.queue[0]; h.status == gParked && h.blocked {
			e.addCand(h)
		}
	}
}

func (e *engine) unlock(g *gstate, site string, p unsafe.Pointer, what string) {
	e.keyPoint(g, strategy.OpUnlock, site, p)
	mm := e.mutexOf(p)
	if !mm.held {
		e.fatal(g, site, "sync: unlock of unlocked "+what)
	}
	mm.held = false
	e.lockChanged(mm)
	mm.holder = lockHold{}
	e.releaseMark(mm, p)
	e.release(g, p)
}

// Lock is m.Lock().
func Lock(site string, m *sync.Mutex) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		plainLock(m)
	case modeControl:
		e.lock(g, site, unsafe.Pointer(m))
		e.hookDone(g)
	}
}

// Unlock is m.Unlock().
func Unlock(site string, m *sync.Mutex) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		plainUnlock(m)
	case modeControl:
		e.unlock(g, site, unsafe.Pointer(m), "mutex")
		e.hookDone(g)
	}
}

func (e *engine) tryLock(g *gstate, site string, p unsafe.Pointer, read bool) bool {
	e.keyPoint(g, strategy.OpTryLock, site, p)
	mm := e.freshHold(p)
	if mm.held || mm.announce != nil || !read && mm.readers > 0 {
		e.polled(g, uintptr(p))
		return false
	}
	if read {
		mm.readers++
		mm.rholders = append(mm.rholders, lockHold{g, site})
	} else {
		mm.held = true
		e.lockChanged(mm)
		mm.holder = lockHold{g, site}
		e.holdMark(mm, p)
		e.rAcquire(g, p)
	}
	e.acquire(g, p)
	e.effect()
	g.acted()
	return true
}

// TryLock is m.TryLock().
func TryLock(site string, m *sync.Mutex) bool {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		return plainTryLock(m)
	case modeSkip:
		return false
	}
	ok := e.tryLock(g, site, unsafe.Pointer(m), false)
	e.hookDone(g)
	return ok
}

// RWLock is m.Lock() on a RWMutex.
func RWLock(site string, m *sync.RWMutex) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		plainRWLock(m)
	case modeControl:
		e.lock(g, site, unsafe.Pointer(m))
		e.hookDone(g)
	}
}

// RWUnlock is m.Unlock() on a RWMutex.
func RWUnlock(site string, m *sync.RWMutex) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		plainRWUnlock(m)
	case modeControl:
		e.unlock(g, site, unsafe.Pointer(m), "RWMutex")
		e.hookDone(g)
	}
}

// RLock is m.RLock(). A writer waiting for readers blocks new readers, as in Go.
func RLock(site string, m *sync.RWMutex) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		plainRLock(m)
	case modeControl:
		mm := e.mutexOf(unsafe.Pointer(m))
		g.p = pending{op: strategy.OpRLock, site: site, obj: uintptr(unsafe.Pointer(m)), wait: waitLock, mm: mm}
		e.point(g)
		for mm.held {
			e.point(g) // a writer outside control took it while g resumed
		}
		mm.readers++
		mm.rholders = append(mm.rholders, lockHold{g, site})
		e.acquire(g, unsafe.Pointer(m))
		e.hookDone(g)
	}
}

// RUnlock is m.RUnlock().
func RUnlock(site string, m *sync.RWMutex) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		plainRUnlock(m)
	case modeControl:
		e.keyPoint(g, strategy.OpRUnlock, site, unsafe.Pointer(m))
		mm := e.mutexOf(unsafe.Pointer(m))
		if mm.readers == 0 {
			e.fatal(g, site, "sync: RUnlock of unlocked RWMutex")
		}
		mm.readers--
		mm.rUnlocked(g)
		e.rRelease(g, unsafe.Pointer(m))
		e.hookDone(g)
	}
}

// RWTryLock is m.TryLock() on a RWMutex.
func RWTryLock(site string, m *sync.RWMutex) bool {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		return plainRWTryLock(m)
	case modeSkip:
		return false
	}
	ok := e.tryLock(g, site, unsafe.Pointer(m), false)
	e.hookDone(g)
	return ok
}

// TryRLock is m.TryRLock().
func TryRLock(site string, m *sync.RWMutex) bool {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		return plainTryRLock(m)
	case modeSkip:
		return false
	}
	ok := e.tryLock(g, site, unsafe.Pointer(m), true)
	e.hookDone(g)
	return ok
}

type rlocker struct{ m *sync.RWMutex }

func (r rlocker) Lock()   { RLock("RLocker", r.m) }
func (r rlocker) Unlock() { RUnlock("RLocker", r.m) }

// RLocker is m.RLocker().
func RLocker(m *sync.RWMutex) sync.Locker { return rlocker{m} }

var stdRLockerType = reflect.TypeOf(new(sync.RWMutex).RLocker())

// LockerLock is l.Lock() through a sync.Locker.
func LockerLock(site string, l sync.Locker) {
	switch x := l.(type) {
	case *sync.Mutex:
		Lock(site, x)
	case *sync.RWMutex:
		RWLock(site, x)
	case rlocker:
		RLock(site, x.m)
	default:
		if reflect.TypeOf(l) == stdRLockerType {
			RLock(site, (*sync.RWMutex)(reflect.ValueOf(l).UnsafePointer()))
			return
		}
		switch m := embeddedMutex(l).(type) {
		case *sync.Mutex:
			Lock(site, m)
		case *sync.RWMutex:
			RWLock(site, m)
		default:
			l.Lock()
		}
	}
}

// LockerUnlock is l.Unlock() through a sync.Locker.
func LockerUnlock(site string, l sync.Locker) {
	switch x := l.(type) {
	case *sync.Mutex:
		Unlock(site, x)
	case *sync.RWMutex:
		RWUnlock(site, x)
	case rlocker:
		RUnlock(site, x.m)
	default:
		if reflect.TypeOf(l) == stdRLockerType {
			RUnlock(site, (*sync.RWMutex)(reflect.ValueOf(l).UnsafePointer()))
			return
		}
		switch m := embeddedMutex(l).(type) {
		case *sync.Mutex:
			Unlock(site, m)
		case *sync.RWMutex:
			RWUnlock(site, m)
		default:
			l.Unlock()
		}
	}
}

// LockerRLock is x.RLock() through an interface of the program's (one with
// RLock and RUnlock over a *sync.RWMutex, as syncthing's lib/sync.RWMutex).
func LockerRLock(site string, x interface{ RLock() }) {
	if m := rwMutexOf(x); m != nil {
		RLock(site, m)
		return
	}
	x.RLock()
}

// LockerRUnlock is x.RUnlock() through an interface.
func LockerRUnlock(site string, x interface{ RUnlock() }) {
	if m := rwMutexOf(x); m != nil {
		RUnlock(site, m)
		return
	}
	x.RUnlock()
}

// rwMutexOf is x as a *sync.RWMutex, or the one it embeds, or nil.
func rwMutexOf(x any) *sync.RWMutex {
	if m, ok := x.(*sync.RWMutex); ok {
		return m
	}
	if l, ok := x.(sync.Locker); ok {
		m, _ := embeddedMutex(l).(*sync.RWMutex)
		return m
	}
	return nil
}

// promotedLock caches, per pointer type, the index path of the embedded
// sync.Mutex or sync.RWMutex whose Lock and Unlock the type's own are (nil:
// none, or the type declares its own).
var promotedLock sync.Map // reflect.Type -> []int

// embeddedMutex is the *sync.Mutex or *sync.RWMutex embedded in the struct
// l points to whose promoted Lock and Unlock l's are (miniredis' *Miniredis
// is its sync.Cond's Locker), or nil: l.Lock() through the interface
// would lock the real mutex that the model stands for, and its Unlock
// then die with "unlock of unlocked mutex".
func embeddedMutex(l sync.Locker) any {
	t := reflect.TypeOf(l)
	// A struct value is a Locker too when its mutex is embedded by pointer
	// (struct{ *sync.RWMutex }).
	if t.Kind() != reflect.Struct && (t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct) {
		return nil
	}
	path, ok := promotedLock.Load(t)
	if !ok {
		path = mutexPath(t)
		promotedLock.Store(t, path)
	}
	idx := path.([]int)
	if idx == nil {
		return nil
	}
	v := reflect.ValueOf(l)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	f, err := v.FieldByIndexErr(idx)
	if err != nil {
		return nil // through an embedded nil pointer: l.Lock() panics as it would
	}
	if f.Kind() == reflect.Pointer {
		if f.IsNil() {
			return nil
		}
		return f.Interface()
	}
	if !f.CanAddr() {
		return nil
	}
	return f.Addr().Interface()
}

var (
	mutexType   = reflect.TypeOf(sync.Mutex{})
	rwmutexType = reflect.TypeOf(sync.RWMutex{})
)

// mutexPath is the index path of t's embedded mutex (t a struct or a
// pointer to one) when t's Lock and Unlock are promoted from it, at any
// depth of embedding (go-sqlmock's expectations embed a struct that embeds
// it).
func mutexPath(t reflect.Type) []int {
	if !promoted(t, "Lock") || !promoted(t, "Unlock") {
		return nil
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	for i := 0; i < st.NumField(); i++ {
		f := st.Field(i)
		if f.Anonymous && isMutexType(f.Type) {
			return f.Index
		}
	}
	// Deeper: Go takes the method from the shallowest embedded field that
	// has it; that field's own Lock must be promoted in turn.
	for i := 0; i < st.NumField(); i++ {
		f := st.Field(i)
		inner := f.Type
		if inner.Kind() == reflect.Pointer {
			inner = inner.Elem()
		}
		if !f.Anonymous || inner.Kind() != reflect.Struct {
			continue
		}
		if _, ok := reflect.PointerTo(inner).MethodByName("Lock"); !ok {
			continue
		}
		if sub := mutexPath(reflect.PointerTo(inner)); sub != nil {
			return append([]int{i}, sub...)
		}
		return nil
	}
	return nil
}

// isMutexType reports whether t is sync.Mutex or sync.RWMutex, or a
// pointer to one.
func isMutexType(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t == mutexType || t == rwmutexType
}

// wgModel is a WaitGroup: its counter, and whether a Wait blocked since
// the counter last reached zero (-race's "first waiter").
type wgModel struct {
	n       int
	waiting bool
	gen     int // how many times the counter went back to zero with waiters
}

func (e *engine) wgOf(wg *sync.WaitGroup) *wgModel {
	return e.models.wg.get(wg, func() *wgModel { return &wgModel{} })
}

// WGAdd is wg.Add(n).
func WGAdd(site string, wg *sync.WaitGroup, n int) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		if !e.outsideWGAdd(wg, n) {
			if n < 0 {
				e.outsideWGSync(wg, true) // before the count falls: a waiter may go at once
			}
			wg.Add(n)
			if n < 0 && realWGCount(wg) == 0 {
				// A controlled Wait may go (realWGCount).
				k := uintptr(unsafe.Pointer(wg))
				e.touchAsyncKeys(k, k)
				e.kickIdle()
			}
		}
		return
	case modeSkip:
		return
	}
	e.keyPoint(g, strategy.OpWGAdd, site, unsafe.Pointer(wg))
	m := e.wgOf(wg)
	if n < 0 && m.n == 0 && realWGCount(wg) >= int32(-n) {
		// The count is in the WaitGroup itself: a goroutine outside
		// control added it while the model counted none (outsideWGAdd),
		// as a proxy's dialer counts each connection that the test's
		// CloseIdleConnections then closes (stripe/smokescreen). It is
		// counted down there; waiters outside control wake as in Go.
		e.release(g, unsafe.Pointer(wg))
		wg.Add(n)
		if realWGCount(wg) == 0 {
			e.touch(uintptr(unsafe.Pointer(wg))) // a controlled Wait may go
		}
		e.hookDone(g)
		return
	}
	if n > 0 && m.n == 0 {
		e.wgAccess(g, unsafe.Pointer(wg), site, wgAdd)
	}
	m.n += n
	if n < 0 {
		e.release(g, unsafe.Pointer(wg))
	}
	if m.n == 0 && m.waiting {
		m.waiting = false // the waiters are woken
		m.gen++
	}
	neg := m.n < 0
	e.hookDone(g)
	if neg {
		panic("sync: negative WaitGroup counter")
	}
}

// WGDone is wg.Done().
func WGDone(site string, wg *sync.WaitGroup) { WGAdd(site, wg, -1) }

// WGWait is wg.Wait().
func WGWait(site string, wg *sync.WaitGroup) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		e.outsideWGWait(wg)
		wg.Wait()
		return
	case modeSkip:
		return
	}
	m := e.wgOf(wg)
	gen, blocks := m.gen, m.n != 0
	if blocks && !m.waiting {
		// This Wait blocks (it finds the counter above zero now) and is
		// the first to: under -race it writes what a later Add from zero reads.
		e.wgAccess(g, unsafe.Pointer(wg), site, wgWait)
	}
	if blocks {
		m.waiting = true
	}
	// A blocked Wait is woken when the counter reaches zero, even if an Add
	// raises it again before the waiter runs: then Go panics.
	g.p = pending{op: strategy.OpWGWait, site: site, obj: uintptr(unsafe.Pointer(wg)), wg: wg, ready: func() bool { return m.n == 0 && realWGCount(wg) == 0 || blocks && m.gen != gen }}
	e.wgWaits++
	e.point(g)
	e.wgWaits--
	reused := m.n != 0
	e.acquire(g, unsafe.Pointer(wg))
	e.hookDone(g)
	if reused {
		panic("sync: WaitGroup is reused before previous Wait has returned")
	}
}

// realWGCount is the counter of wg itself, which only goroutines outside
// control change (outsideWGAdd: when the model counts none of it). A
// controlled Wait waits for it too: a net/http transport's goroutine dials
// through the program's dialer, which counts the connection's writer in
// the WaitGroup that the test's Close waits on (CorentinB/warc's clients
// closed the writers' channel under them). sync.WaitGroup keeps its
// counter in the high 32 bits of its first word (Go 1.20 to 1.26;
// TestRealWGCount checks the layout).
func realWGCount(wg *sync.WaitGroup) int32 {
	return int32((*atomic.Uint64)(unsafe.Pointer(wg)).Load() >> 32)
}

// WGGo is wg.Go(f).
func WGGo(site string, wg *sync.WaitGroup, f func()) {
	WGAdd(site, wg, 1)
	goFrom(site, func() {
		defer WGDone(site, wg)
		f()
	}, 3)
}

// OnceDo is o.Do(f). A second caller blocks until the first one's f returns.
func OnceDo(site string, o *sync.Once, f func()) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		onceDo(o, f)
		return
	case modeSkip:
		return
	}
	om := e.models.once.get(o, func() *onceModel { return &onceModel{} })
	g.p = pending{op: strategy.OpOnce, site: site, obj: uintptr(unsafe.Pointer(o)), ready: func() bool { return !om.running }}
	e.point(g)
	if om.done && !onceDone(o) {
		// The program reset the Once (r.once = sync.Once{}, a renderer
		// that can be restarted): it runs f again, as under go test.
		om.done = false
	}
	if om.done {
		e.acquire(g, unsafe.Pointer(o))
		e.hookDone(g)
		return
	}
	om.running = true
	e.hookDone(g)
	defer func() {
		e.mu.Lock()
		om.running, om.done = false, true
		e.touch(uintptr(unsafe.Pointer(o)))
		e.release(g, unsafe.Pointer(o))
		e.hookDone(g) // the goroutines waiting for f may go
	}()
	onceDo(o, f)
}

// onceDo is sync.Once.Do called through a variable, so that it is not
// inlined into OnceDo: f's callers then see Do's frame as its own, and
// Period's frames, left out of runtime.Callers (rt.Callers), are whole
// frames (a caller's package named with runtime.Caller(4) from within f
// skips f, doSlow, Do and the function that called Do, as under go test).
var onceDo = (*sync.Once).Do

// PackageOnceDo is o.Do(f) on a sync.Once the rewriter found in a
// package-level variable: goroutines f starts are the process's own
// daemons (fasthttp's date updater, a timestamp ticker), started once
// whatever the tests do, and never a leak; goleak users list them as
// ignored.
func PackageOnceDo(site string, o *sync.Once, f func()) {
	OnceDo(site, o, func() {
		e := eng
		e.mu.Lock()
		g := e.callerG()
		if g != nil {
			g.onceDepth++
		}
		e.mu.Unlock()
		if g != nil {
			defer func() {
				e.mu.Lock()
				g.onceDepth--
				e.mu.Unlock()
			}()
		}
		f()
	})
}

// onceDone reads o's done flag, its first field: an atomic.Uint32 before
// Go 1.25, an atomic.Bool followed by padding since; either way the first
// four bytes are zero until f has run.
func onceDone(o *sync.Once) bool {
	return atomic.LoadUint32((*uint32)(unsafe.Pointer(o))) != 0
}

// OnceFunc is sync.OnceFunc(f), built on OnceDo so that waiting is controlled.
// A function made outside a run (a package-level var, init, TestMain) is
// package state: every run starts with it as it was when exploration began,
// as a fresh test process would (its result is not carried over from the
// previous schedule while the variables it wrote are restored).
func OnceFunc(f func()) func() {
	var once sync.Once
	var p any
	ran := false
	if !eng.active.Load() {
		Globals(func() func() {
			done := ran
			return func() {
				if !done {
					once, p, ran = sync.Once{}, nil, false
				}
			}
		})
	}
	do := OnceDo
	if !eng.active.Load() {
		do = PackageOnceDo // made at package level: a process-wide once
	}
	return func() {
		do("sync.OnceFunc", &once, func() {
			ran = true
			defer func() {
				if r := recover(); r != nil {
					p = r
				}
			}()
			f()
		})
		if p != nil {
			panic(p)
		}
	}
}

// OnceValue is sync.OnceValue(f).
func OnceValue[T any](f func() T) func() T {
	var v T
	g := OnceFunc(func() { v = f() })
	return func() T { g(); return v }
}

// OnceValues is sync.OnceValues(f).
func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) {
	var a T1
	var b T2
	g := OnceFunc(func() { a, b = f() })
	return func() (T1, T2) { g(); return a, b }
}

// NewCond is sync.NewCond(l).
func NewCond(l sync.Locker) *sync.Cond { return sync.NewCond(l) }

func (e *engine) condOf(c *sync.Cond) *condModel {
	return e.models.cond.get(c, func() *condModel {
		return &condModel{signaled: map[*gstate]bool{}, clocks: map[*gstate]vc{}}
	})
}

// CondWait is c.Wait(): unlock c.L, wait for a signal, lock c.L again.
func CondWait(site string, c *sync.Cond) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		e.outsideCondWait(c)
		return
	case modeSkip:
		return
	}
	// g waits from before it unlocks, as sync.Cond's notifyListAdd makes
	// it: a Signal between the Unlock and the wait (another goroutine's,
	// or one the Locker's own Unlock sends: pebble's flusherCond) wakes it.
	cm := e.condOf(c)
	cm.waiters = append(cm.waiters, g)
	e.mu.Unlock()
	LockerUnlock(site, c.L)
	g, md = e.enter()
	if md != modeControl {
		return
	}
	g.p = pending{op: strategy.OpCondWait, site: site, obj: uintptr(unsafe.Pointer(c)), ready: func() bool { return cm.signaled[g] }}
	e.point(g)
	delete(cm.signaled, g)
	g.vc.join(cm.clocks[g])
	delete(cm.clocks, g)
	e.hookDone(g)
	LockerLock(site, c.L)
}

func condNotify(site string, c *sync.Cond, all bool) {
	e := eng
	g, md := e.enter()
	switch md {
	case modePlain:
		if e.condNotifyOutside(c, all) && !all {
			return
		}
		if all {
			c.Broadcast()
		} else {
			c.Signal()
		}
		return
	case modeSkip:
		return
	}
	e.keyPoint(g, strategy.OpCondSignal, site, unsafe.Pointer(c))
	cm := e.condOf(c)
	woke := e.condWake(cm, all, g)
	// Goroutines outside control wait in the real Cond: a Signal nobody
	// in the model took, and every Broadcast, reach them, and the clock
	// waits for what they do next (outsideGrace).
	if (all || !woke) && realCondWaiters(c) {
		e.handedOut++
		if all {
			c.Broadcast()
		} else {
			c.Signal()
		}
	}
	e.hookDone(g)
}

// condWake signals the first of cm's waiters in the model (all of them if
// all); from, the signalling goroutine (nil outside control), passes its
// clock to them. It reports whether any waited. e.mu is held.
func (e *engine) condWake(cm *condModel, all bool, from *gstate) bool {
	woke := len(cm.waiters) > 0
	for len(cm.waiters) > 0 {
		w := cm.waiters[0]
		cm.waiters = cm.waiters[1:]
		cm.signaled[w] = true
		if from != nil && e.race.on {
			cm.clocks[w] = from.vc.clone()
		}
		if !all {
			break
		}
	}
	if woke && from != nil && e.race.on {
		// A release: what the signaller does next is not before the
		// waiters' wake-up (and its entry now was published: freeSlot).
		from.vc.tick(from.slot)
	}
	return woke
}

// notifyOffset is the offset of sync.Cond's notify list, whose first two
// words are the tickets of the next waiter and of the next to be notified
// (runtime.notifyList): different while a goroutine waits in the real Cond.
var notifyOffset = func() uintptr {
	f, ok := reflect.TypeOf(sync.Cond{}).FieldByName("notify")
	if !ok || f.Type.Size() < 8 {
		return 0
	}
	return f.Offset
}()

// realCondWaiters reports whether goroutines wait in c's real Wait
// (goroutines outside control: controlled ones wait in the model).
func realCondWaiters(c *sync.Cond) bool {
	if notifyOffset == 0 {
		return true // an unknown layout: signal as Go would
	}
	tickets := (*[2]atomic.Uint32)(unsafe.Add(unsafe.Pointer(c), notifyOffset))
	return tickets[0].Load() != tickets[1].Load()
}

// outsideCondWait is c.Wait() for a goroutine outside control during a run:
// its hold of c.L in the model (outsidelock.go) is released around the
// real Wait, which unlocks and locks only the real mutex; otherwise
// controlled goroutines would wait for that hold for ever.
func (e *engine) outsideCondWait(c *sync.Cond) {
	var p unsafe.Pointer
	switch l := c.L.(type) {
	case *sync.Mutex:
		p = unsafe.Pointer(l)
	case *sync.RWMutex:
		p = unsafe.Pointer(l)
	}
	if p == nil || !e.active.Load() {
		c.Wait()
		return
	}
	e.outsideUnlock(p, false)
	c.Wait()
	e.outsideLock(p, false, false)
}

// condNotifyOutside: a goroutine outside control (a scheduler a package's
// init started: xtaci/kcp-go's timed updates feeding its post-process
// workers) signals c while controlled goroutines wait for it in the model,
// where the real Signal cannot reach them: the first of them (or all) wake
// as if a controlled goroutine had signalled. It reports whether one did.
func (e *engine) condNotifyOutside(c *sync.Cond, all bool) bool {
	if !e.active.Load() {
		return false
	}
	e.mu.Lock()
	cm := e.models.cond.lookup(c)
	if e.finished || cm == nil || len(cm.waiters) == 0 {
		e.mu.Unlock()
		return false
	}
	e.condWake(cm, all, nil)
	e.touch(uintptr(unsafe.Pointer(c)))
	e.mu.Unlock()
	e.kickIdle()
	return true
}

// CondSignal is c.Signal().
func CondSignal(site string, c *sync.Cond) { condNotify(site, c, false) }

// CondBroadcast is c.Broadcast().
func CondBroadcast(site string, c *sync.Cond) { condNotify(site, c, true) }

// SyncMap is a key point before a method call on a sync.Map.
func SyncMap(site string, m *sync.Map) *sync.Map {
	e := eng
	g, md := e.enter()
	if md == modeControl {
		e.keyPoint(g, strategy.OpAtomic, site, unsafe.Pointer(m))
		e.acqRel(g, unsafe.Pointer(m))
		e.mu.Unlock()
	}
	return m
}

// SyncMapAfter is SyncMap's key point in the call's last argument that
// runs code, a, after its evaluation (m.Store(k, build())); it returns a.
func SyncMapAfter[A any](site string, m *sync.Map, a A) A {
	SyncMap(site, m)
	return a
}

// SyncMapRange is m.Range(f). Its key point comes first, as for the other
// methods of sync.Map; and each call of f acquires m again, with no key
// point: f's own key points let other goroutines store into m while the
// range goes on, and an entry the range meets after such a Store was
// published by it (Range's loads synchronise with the Store, so -race sees
// no race there: a copy-on-write update of a value stored by pointer,
// hashicorp/go-metrics' Prometheus sink).
//
// Under control the keys come in MapKeys' order, not the real map's, which
// Go randomizes in every process: a range that closes each subscriber's
// channel in turn would otherwise wake them in another order under the
// same schedule. Each key's value is loaded at its turn, and a key deleted
// before it is skipped, as ranging over a map does (Range allows any
// mapping of a key from during the call).
func SyncMapRange(site string, m *sync.Map, f func(key, value any) bool) {
	SyncMap(site, m)
	e := eng
	_, md := e.enter()
	if md != modeControl {
		m.Range(f)
		return
	}
	e.mu.Unlock()
	snapshot := map[any]any{}
	m.Range(func(k, v any) bool { snapshot[k] = v; return true })
	for it, _, _ := MapRange(snapshot); it.Next(); {
		k, v := it.Key(), it.Value()
		if k == k { // NaN keys cannot be loaded: their values of the start
			var ok bool
			if v, ok = m.Load(k); !ok {
				continue // deleted before its turn
			}
		}
		if g, md := e.enter(); md == modeControl {
			e.acquire(g, unsafe.Pointer(m))
			e.mu.Unlock()
		}
		if !f(k, v) {
			return
		}
	}
}

// ifaceData is the data word of x: the pointer a pointer-shaped value holds,
// or the address of the boxed copy of any other value (nil for nil).
func ifaceData(x any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1]
}

// poolModel is a sync.Pool as controlled goroutines use it: the values put
// back, last in first out, at most poolKeep. The real Pool keeps them per
// processor and drops them at garbage collections, so whether a Get
// returns a value put back or calls New depends on the processor a
// goroutine ran on: a pooled buffer that two goroutines shared in one run
// and a fresh one in the next made its accesses key points in one and not
// the other, and the same schedule took 124,788 or 124,792 steps
// (centrifugal/protocol's JSON buffers). Every run starts with an empty
// pool, as a fresh process does; values put back outside control stay in
// the real Pool.
type poolModel struct{ items []any }

// poolKeep bounds what a pool model keeps: a burst of Puts beyond it drops
// the oldest values, as a collection may drop any.
const poolKeep = 64

// PoolGet is p.Get(). A value that another goroutine put back carries that
// goroutine's past to the getter, as the race detector's annotations of
// sync.Pool make it (Put releases the value, Get acquires it): reusing a
// pooled buffer is not a data race. Neither is a key point.
func PoolGet(site string, p *sync.Pool) any {
	e := eng
	g, md := e.enter()
	if md != modeControl {
		return p.Get()
	}
	var x any
	if m := e.models.pool[p]; m != nil && len(m.items) > 0 {
		n := len(m.items) - 1
		x, m.items[n], m.items = m.items[n], nil, m.items[:n]
		if d := ifaceData(x); d != nil {
			e.acquire(g, d)
		}
	}
	e.mu.Unlock()
	if x == nil && p.New != nil {
		x = p.New() // user code, outside e.mu
	}
	return x
}

// PoolPut is p.Put(x).
func PoolPut(site string, p *sync.Pool, x any) {
	e := eng
	g, md := e.enter()
	if md != modeControl {
		p.Put(x)
		return
	}
	if x != nil { // as Pool.Put, which drops nil
		if d := ifaceData(x); d != nil {
			e.release(g, d)
		}
		m := e.models.pool[p]
		if m == nil {
			if e.models.pool == nil {
				e.models.pool = map[*sync.Pool]*poolModel{}
			}
			m = &poolModel{}
			e.models.pool[p] = m
		}
		if len(m.items) == poolKeep {
			copy(m.items, m.items[1:])
			m.items = m.items[:poolKeep-1]
		}
		m.items = append(m.items, x)
	}
	e.mu.Unlock()
}
