//go:build go1.21

package rt

import (
	"context"
	"sync"
)

type Mutexish struct{ sync.Mutex }
type WaitGroupish struct{ sync.WaitGroup }

func contextBackground() context.Context { return context.Background() }

var escapedSink any

// escaped keeps p on the heap, as variables that goroutines share are:
// one that stays on its goroutine's stack is no access Period records.
func escaped[T any](p *T) *T {
	escapedSink = p
	return p
}
