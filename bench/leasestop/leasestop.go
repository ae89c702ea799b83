// Package leasestop is a timer pattern: a lease expires through
// time.AfterFunc, and Release trusts Stop's answer about the callback.
package leasestop

import (
	"sync"
	"time"
)

// Lease is held until released or until its time-to-live passes.
type Lease struct {
	mu    sync.Mutex
	held  bool
	timer *time.Timer
}

// Acquire takes the lease for ttl.
func (l *Lease) Acquire(ttl time.Duration) {
	l.mu.Lock()
	l.held = true
	l.timer = time.AfterFunc(ttl, l.expire)
	l.mu.Unlock()
}

func (l *Lease) expire() {
	l.mu.Lock()
	l.held = false
	l.mu.Unlock()
}

// Held reports whether the lease is held.
func (l *Lease) Held() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.held
}

// Release gives the lease back. When Stop reports that the timer already
// fired, it returns early, believing expire did the work, and leaves the
// lock held: expire (which has only started) and every later caller block.
func (l *Lease) Release() {
	l.mu.Lock()
	if !l.timer.Stop() {
		return
	}
	l.held = false
	l.mu.Unlock()
}

// ReleaseFixed unlocks on every path.
func (l *Lease) ReleaseFixed() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.timer.Stop()
	l.held = false
}
