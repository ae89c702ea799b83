package leaks

import "testing"

func TestJanitorLeftRunning(t *testing.T) {
	c := NewCache()
	c.mu.Lock()
	c.m["a"] = 1
	c.mu.Unlock()
}

func TestWorkerStuck(t *testing.T) {
	Start()
}

func TestClosed(t *testing.T) {
	c := NewCache()
	defer c.Close()
}
