// Package initloader builds a table in a goroutine that its init starts, and
// tells when it is ready by closing a channel: the table is a package
// variable the goroutine sets after init has returned.
package initloader

import "sync"

var (
	ready   = make(chan struct{})
	tableMu sync.RWMutex
	table   map[string]int
)

func init() {
	go load()
}

func load() {
	t := map[string]int{}
	for i := range 200000 {
		t[string(rune('a'+i%26))] += i % 7
	}
	t["x"] = 1
	tableMu.Lock()
	table = t
	tableMu.Unlock()
	close(ready)
}

// Get waits for the table, then reads it.
func Get(k string) int {
	<-ready
	tableMu.RLock()
	defer tableMu.RUnlock()
	return table[k]
}
