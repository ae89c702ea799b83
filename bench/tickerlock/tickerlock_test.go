package tickerlock

import (
	"testing"
	"time"
)

func run(set func(*Cache, int)) {
	c := NewCache()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		c.Loop(stop, time.Microsecond)
		close(done)
	}()
	set(c, 1)
	close(stop)
	<-done
}

// Bug: the tick arrives between the writer's Lock and its send.
// period:want deadlock
func TestTickerLockBuggy(t *testing.T) { run((*Cache).Set) }

// period:want none
func TestTickerLockFixed(t *testing.T) { run((*Cache).SetFixed) }
