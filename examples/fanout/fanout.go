// Package fanout runs functions concurrently and keeps the first error, like errgroup.
package fanout

import "sync"

// Group waits for a set of goroutines and remembers the first error.
type Group struct {
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

// Go runs f in a new goroutine; Add happens before the goroutine starts.
func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.once.Do(func() { g.err = err })
		}
	}()
}

// Wait blocks until every function returned and reports the first error.
func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}
