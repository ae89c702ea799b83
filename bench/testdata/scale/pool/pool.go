// Package pool is a worker pool: workers take tasks from one channel and
// add their results to a total. Scale program (docs/scale.md): 1,000
// workers, 10,000 tasks.
package pool

import "sync"

// Pool runs tasks on a fixed set of workers.
type Pool struct {
	tasks chan int
	wg    sync.WaitGroup
	mu    sync.Mutex
	total int
	// unlocked makes workers add without the mutex (the bug).
	unlocked bool
}

// New starts workers goroutines.
func New(workers int, unlocked bool) *Pool {
	p := &Pool{tasks: make(chan int, workers), unlocked: unlocked}
	p.wg.Add(workers)
	for i := 0; i < workers; i++ {
		go p.work()
	}
	return p
}

func (p *Pool) work() {
	defer p.wg.Done()
	for t := range p.tasks {
		r := t * 2
		if p.unlocked {
			p.total += r
			continue
		}
		p.mu.Lock()
		p.total += r
		p.mu.Unlock()
	}
}

// Submit queues a task.
func (p *Pool) Submit(t int) { p.tasks <- t }

// Wait stops accepting tasks and returns the total once every worker is done.
func (p *Pool) Wait() int {
	close(p.tasks)
	p.wg.Wait()
	return p.total
}
