// Package busypoll is a timer pattern: a worker polls its stop channel
// without blocking while the test sleeps, then samples the worker's
// progress once.
package busypoll

import "sync"

// Progress counts the steps a worker started and finished.
type Progress struct {
	mu       sync.Mutex
	started  int
	finished int
}

// Step records one step in two critical sections: a sample taken between
// them sees a step started and not finished.
func (p *Progress) Step() {
	p.mu.Lock()
	p.started++
	p.mu.Unlock()
	p.mu.Lock()
	p.finished++
	p.mu.Unlock()
}

// StepFixed records the step in one critical section.
func (p *Progress) StepFixed() {
	p.mu.Lock()
	p.started++
	p.finished++
	p.mu.Unlock()
}

// Sample returns both counts at one instant.
func (p *Progress) Sample() (started, finished int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.started, p.finished
}

// Run polls stop and steps until it is closed.
func Run(stop <-chan struct{}, step func()) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		step()
	}
}
