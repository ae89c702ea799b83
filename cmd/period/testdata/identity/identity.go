// Package identity is a counter whose tests check that a test under Period
// sees what it sees under go test: TestMain, testing.Short and Verbose,
// build tags, TempDir, Setenv and Chdir.
package identity

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Incr() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
