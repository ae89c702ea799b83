// Package tickerctx polls on a ticker until its context expires.
package tickerctx

import (
	"context"
	"time"
)

// Poll calls check on every tick until ctx is done, and returns the number
// of checks made and the context's error.
func Poll(ctx context.Context, every time.Duration, check func()) (int, error) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	n := 0
	for {
		select {
		case <-ctx.Done():
			return n, ctx.Err()
		case <-tick.C:
			check()
			n++
		}
	}
}
