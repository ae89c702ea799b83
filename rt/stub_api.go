//go:build go1.21

package rt

// TEMPORARY passthrough bodies: they give the hook API its final signatures
// while the engine is being written. Replaced file by file.

import (
	"context"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Test is one test function handed to Explore by the generated driver.
type Test struct {
	Name string
	F    func(*testing.T)
}

// Explore runs each test under the controlled scheduler (configured through
// the environment by the period command).
func Explore(t *testing.T, tests []Test) {
	for _, tt := range tests {
		t.Run(tt.Name, tt.F)
	}
}

func Go(site string, f func())   { go f() }
func Gosched(site string)        { runtime.Gosched() }
func Exit(site string, code int) { os.Exit(code) }

func Send[T any](site string, ch chan<- T, v T)       { ch <- v }
func Recv[T any](site string, ch <-chan T) T          { return <-ch }
func Recv2[T any](site string, ch <-chan T) (T, bool) { v, ok := <-ch; return v, ok }
func Close[T any](site string, ch chan<- T)           { close(ch) }

type Case struct{ any }

func SendCase[T any](ch chan<- T) Case                       { return Case{ch} }
func RecvCase[T any](ch <-chan T) Case                       { return Case{ch} }
func Select(site string, hasDefault bool, cases ...Case) int { return -2 }
func RecvIf[T any](sel, i int, ch <-chan T) <-chan T {
	if sel == i || sel == -2 {
		return ch
	}
	return nil
}
func SendIf[T any](sel, i int, ch chan<- T) chan<- T {
	if sel == i || sel == -2 {
		return ch
	}
	return nil
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func DefaultIf(sel int) <-chan struct{} {
	if sel == -1 {
		return closedChan
	}
	return nil
}
func SelectDone(sel int)       {}
func BlockForever(site string) { select {} }

func Lock(site string, m *sync.Mutex)              { m.Lock() }
func Unlock(site string, m *sync.Mutex)            { m.Unlock() }
func TryLock(site string, m *sync.Mutex) bool      { return m.TryLock() }
func RWLock(site string, m *sync.RWMutex)          { m.Lock() }
func RWUnlock(site string, m *sync.RWMutex)        { m.Unlock() }
func RLock(site string, m *sync.RWMutex)           { m.RLock() }
func RUnlock(site string, m *sync.RWMutex)         { m.RUnlock() }
func RWTryLock(site string, m *sync.RWMutex) bool  { return m.TryLock() }
func TryRLock(site string, m *sync.RWMutex) bool   { return m.TryRLock() }
func RLocker(m *sync.RWMutex) sync.Locker          { return m.RLocker() }
func LockerLock(site string, l sync.Locker)        { l.Lock() }
func LockerUnlock(site string, l sync.Locker)      { l.Unlock() }
func WGAdd(site string, wg *sync.WaitGroup, n int) { wg.Add(n) }
func WGDone(site string, wg *sync.WaitGroup)       { wg.Done() }
func WGWait(site string, wg *sync.WaitGroup)       { wg.Wait() }
func WGGo(site string, wg *sync.WaitGroup, f func()) {
	wg.Add(1)
	go func() { defer wg.Done(); f() }()
}
func OnceDo(site string, o *sync.Once, f func())               { o.Do(f) }
func OnceFunc(f func()) func()                                 { return sync.OnceFunc(f) }
func OnceValue[T any](f func() T) func() T                     { return sync.OnceValue(f) }
func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) { return sync.OnceValues(f) }
func NewCond(l sync.Locker) *sync.Cond                         { return sync.NewCond(l) }
func CondWait(site string, c *sync.Cond)                       { c.Wait() }
func CondSignal(site string, c *sync.Cond)                     { c.Signal() }
func CondBroadcast(site string, c *sync.Cond)                  { c.Broadcast() }
func SyncMap(site string, m *sync.Map) *sync.Map               { return m }

func Atomic[P any](site string, p P) P { return p }

var _ = atomic.AddInt32

func R[T any](site string, p *T) *T                            { return p }
func W[T any](site string, p *T) *T                            { return p }
func MapR[M ~map[K]V, K comparable, V any](site string, m M) M { return m }
func MapW[M ~map[K]V, K comparable, V any](site string, m M) M { return m }

func Sleep(site string, d time.Duration)                           { time.Sleep(d) }
func Now() time.Time                                               { return time.Now() }
func Since(t time.Time) time.Duration                              { return time.Since(t) }
func Until(t time.Time) time.Duration                              { return time.Until(t) }
func After(site string, d time.Duration) <-chan time.Time          { return time.After(d) }
func Tick(site string, d time.Duration) <-chan time.Time           { return time.Tick(d) }
func NewTimer(site string, d time.Duration) *time.Timer            { return time.NewTimer(d) }
func NewTicker(site string, d time.Duration) *time.Ticker          { return time.NewTicker(d) }
func AfterFunc(site string, d time.Duration, f func()) *time.Timer { return time.AfterFunc(d, f) }
func TimerStop(site string, t *time.Timer) bool                    { return t.Stop() }
func TimerReset(site string, t *time.Timer, d time.Duration) bool  { return t.Reset(d) }
func TickerStop(site string, t *time.Ticker)                       { t.Stop() }
func TickerReset(site string, t *time.Ticker, d time.Duration)     { t.Reset(d) }
func WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, d)
}
func WithDeadline(parent context.Context, t time.Time) (context.Context, context.CancelFunc) {
	return context.WithDeadline(parent, t)
}
func WithTimeoutCause(parent context.Context, d time.Duration, cause error) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(parent, d, cause)
}
func WithDeadlineCause(parent context.Context, t time.Time, cause error) (context.Context, context.CancelFunc) {
	return context.WithDeadlineCause(parent, t, cause)
}

func Globals(snapshot func() (restore func())) bool { return true }
