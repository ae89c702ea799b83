package races

import (
	"sync"
	"testing"
)

// rwMutex is a program's own interface over a *sync.RWMutex, as syncthing's
// lib/sync.RWMutex: its read locks order accesses as the write locks do.
type rwMutex interface {
	Lock()
	Unlock()
	RLock()
	RUnlock()
}

type progress struct {
	mut  rwMutex
	done int
}

// period:want none
func TestReadLockThroughInterface(t *testing.T) {
	p := &progress{mut: &sync.RWMutex{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		p.mut.Lock()
		p.done++
		p.mut.Unlock()
	}()
	go func() {
		defer wg.Done()
		p.mut.RLock()
		_ = p.done
		p.mut.RUnlock()
	}()
	wg.Wait()
}

// The writer forgot the lock: a race, whichever way the reader locks.
//
// period:want race
func TestRaceBesideReadLockThroughInterface(t *testing.T) {
	p := &progress{mut: &sync.RWMutex{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		p.done++
	}()
	go func() {
		defer wg.Done()
		p.mut.RLock()
		_ = p.done
		p.mut.RUnlock()
	}()
	wg.Wait()
}
