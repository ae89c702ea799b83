// Package ledger applies a batch of entries while an epoch rotator runs.
package ledger

import "sync"

type Ledger struct {
	mu      sync.RWMutex
	epoch   int
	applied []int
}

func (l *Ledger) Epoch() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.epoch
}

func (l *Ledger) Rotate() {
	l.mu.Lock()
	l.epoch++
	l.mu.Unlock()
}

func (l *Ledger) apply(v int) {
	l.mu.Lock()
	l.applied = append(l.applied, v)
	l.mu.Unlock()
}

// ApplyBatchBuggy bumps the epoch at the checkpoint entry with a read and a
// later write in separate critical sections.
func (l *Ledger) ApplyBatchBuggy(entries []int, checkpoint int) {
	for i, e := range entries {
		if i == checkpoint {
			cur := l.Epoch()
			l.apply(-1) // checkpoint marker
			l.mu.Lock()
			l.epoch = cur + 1
			l.mu.Unlock()
			continue
		}
		l.apply(e)
	}
}

func (l *Ledger) ApplyBatch(entries []int, checkpoint int) {
	for i, e := range entries {
		if i == checkpoint {
			l.apply(-1)
			l.Rotate()
			continue
		}
		l.apply(e)
	}
}
