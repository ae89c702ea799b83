//go:build go1.21

package rt

import (
	"context"
	"sync"
)

type Mutexish struct{ sync.Mutex }
type WaitGroupish struct{ sync.WaitGroup }

func contextBackground() context.Context { return context.Background() }
