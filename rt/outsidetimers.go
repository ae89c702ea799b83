//go:build go1.21

package rt

import (
	"context"
	"sync"
	"time"
)

// Real timers armed by the program's code outside control: a goroutine of
// net/http running x/net's HTTP/2 read loop arms time.AfterFunc for its
// health check, whose ping fails the request a controlled goroutine waits
// for after ReadIdleTimeout and PingTimeout (k8s apimachinery's
// TestIsConnectionReset). The engine knows nothing else of them: with every
// controlled goroutine blocked and no virtual timer left, it called the run
// a deadlock two seconds before the timer would have ended it. It now waits
// for such a timer when one is due soon (outsideTimerHorizon), as a real
// clock would.

// outsideTimerHorizon: a real timer due later than this is not waited for
// (an idle connection's 90-second timeout); a deadlock beside it is
// reported at once, as before.
const outsideTimerHorizon = 10 * time.Second

var outsideTimers = struct {
	mu      sync.Mutex
	due     map[any]time.Time // by *time.Timer, or by the context of a deadline
	pruneAt int               // the size at which armedOutside drops the passed ones
}{due: map[any]time.Time{}, pruneAt: minPruneAt}

const minPruneAt = 1024

// armedOutside records a real timer (or a context's deadline) set by code
// outside control, due at when. One due past outsideTimerHorizon is not
// recorded (outsideTimerWait would not wait for it; a server's 30-second
// request timeouts would fill the map); its Reset nearer records it.
func armedOutside(key any, when time.Time) {
	if !eng.active.Load() {
		return
	}
	now := time.Now()
	outsideTimers.mu.Lock()
	defer outsideTimers.mu.Unlock()
	if when.Sub(now) > outsideTimerHorizon {
		delete(outsideTimers.due, key) // reset farther
		return
	}
	if len(outsideTimers.due) >= outsideTimers.pruneAt {
		// Amortized: the map is scanned once each time it doubles.
		pruneOutsideTimers(now)
		outsideTimers.pruneAt = max(minPruneAt, 2*len(outsideTimers.due))
	}
	outsideTimers.due[key] = when
}

// stoppedOutside forgets a real timer stopped, or a context cancelled.
func stoppedOutside(key any) {
	outsideTimers.mu.Lock()
	delete(outsideTimers.due, key)
	outsideTimers.mu.Unlock()
}

// pruneOutsideTimers drops the timers whose time has passed, with the
// grace their functions get. outsideTimers.mu is held.
func pruneOutsideTimers(now time.Time) {
	for k, when := range outsideTimers.due {
		if now.After(when.Add(outsideGraceTime)) {
			delete(outsideTimers.due, k)
		}
	}
}

// outsideTimerWait is how long to wait for the next real timer armed
// outside control, due within outsideTimerHorizon, and for what it runs
// (outsideGraceTime past it); 0 if there is none.
func outsideTimerWait() time.Duration {
	outsideTimers.mu.Lock()
	defer outsideTimers.mu.Unlock()
	if len(outsideTimers.due) == 0 {
		return 0
	}
	now := time.Now()
	pruneOutsideTimers(now)
	var next time.Duration
	for _, when := range outsideTimers.due {
		if d := when.Add(outsideGraceTime).Sub(now); d <= outsideTimerHorizon && (next == 0 || d < next) {
			next = d
		}
	}
	return next
}

// resetOutsideTimers forgets the timers of an earlier run.
func resetOutsideTimers() {
	outsideTimers.mu.Lock()
	clear(outsideTimers.due)
	outsideTimers.mu.Unlock()
}

// outsideDeadline is context.WithDeadlineCause for code outside control,
// its deadline recorded until the context is cancelled.
func outsideDeadline(parent context.Context, d time.Time, cause error) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithDeadlineCause(parent, d, cause)
	armedOutside(ctx, d)
	return ctx, func() {
		stoppedOutside(ctx)
		cancel()
	}
}
