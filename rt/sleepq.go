//go:build go1.21

package rt

import (
	"cmp"
	"slices"
)

// sleepQueue holds the goroutines blocked in Sleep ordered by the instant
// they wake, so that a clock that passes one of them, or asks for the next
// wake-up, looks at the few due ones instead of every sleeper (100,000
// goroutines that sleep at once made every step a pass over all of them).
// Entries go stale when their goroutine is woken or blocks anew; they are
// dropped when they reach the top. seq keeps the order in which goroutines
// blocked, which is the order due sleepers become candidates.
type sleepQueue struct {
	h   heapq[sleepRef]
	seq uint64
	due []sleepRef // popDue's buffer
}

type sleepRef struct {
	g   *gstate
	gen uint32
	at  int64
	seq uint64
}

func (r sleepRef) live() bool { return r.g.blocked && r.g.blockGen == r.gen }

func (r sleepRef) before(o sleepRef) bool { return r.at < o.at || r.at == o.at && r.seq < o.seq }

func (q *sleepQueue) reset() {
	clear(q.h)
	q.h = q.h[:0]
	q.seq = 0
}

func (q *sleepQueue) len() int { return len(q.h) }

func (q *sleepQueue) push(g *gstate) {
	q.seq++
	q.h.push(sleepRef{g, g.blockGen, g.p.wakeAt, q.seq})
}

func (q *sleepQueue) pop() sleepRef { return q.h.pop() }

// dropStale pops stale entries off the top.
func (q *sleepQueue) dropStale() {
	for len(q.h) > 0 && !q.h[0].live() {
		q.pop()
	}
}

// popDue takes the live sleepers due by now off the queue, in the order they
// blocked. The slice is valid until the next call.
func (q *sleepQueue) popDue(now int64) []sleepRef {
	clear(q.due)
	q.due = q.due[:0]
	for q.dropStale(); len(q.h) > 0 && q.h[0].at <= now; q.dropStale() {
		q.due = append(q.due, q.pop())
	}
	slices.SortFunc(q.due, func(a, b sleepRef) int { return cmp.Compare(a.seq, b.seq) })
	return q.due
}

// next is the earliest wake-up of a live sleeper parked at its sleep (-1:
// none).
func (q *sleepQueue) next() int64 {
	q.dropStale()
	if len(q.h) == 0 {
		return -1
	}
	if q.h[0].g.status == gParked {
		return q.h[0].at
	}
	// The first is live but not parked (rare): look at all of them.
	next := int64(-1)
	for _, r := range q.h {
		if r.live() && r.g.status == gParked && (next < 0 || r.at < next) {
			next = r.at
		}
	}
	return next
}
