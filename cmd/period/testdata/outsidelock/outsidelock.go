// Package outsidelock keeps a registry that a background goroutine (started in init) fills.
package outsidelock

import "sync"

var (
	mu    sync.Mutex
	reg   = map[string]int{}
	input = make(chan string, 16)
)

func init() {
	go func() {
		for name := range input {
			mu.Lock()
			reg[name]++
			for k := range 50 {
				reg[name+string(rune('a'+k%26))] = k
			}
			mu.Unlock()
		}
	}()
}

// Post hands name to the background goroutine.
func Post(name string) { input <- name }

// Count reads the registry.
func Count(name string) int {
	mu.Lock()
	defer mu.Unlock()
	n := 0
	for k, v := range reg {
		if k == name {
			n += v
		}
	}
	return n
}

// Set writes the registry.
func Set(name string, v int) {
	mu.Lock()
	defer mu.Unlock()
	reg[name] = v
	for k := range 20 {
		reg[name+string(rune('A'+k))] = k
	}
}
