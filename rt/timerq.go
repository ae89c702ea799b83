//go:build go1.21

package rt

// timerQueue holds the virtual clock's timers ordered by (when, seq), the
// order they fire in, so that the clock finds the next wake-up and the due
// timers without a pass over all of them (10,000 goroutines each waiting on
// a time.After made every step a pass over 10,000 timers). A timer is
// pushed each time it is set (add, a ticker's next tick); an entry whose
// timer was stopped or set again since is stale, dropped when it reaches
// the top or when the queue is compacted.
type timerQueue struct {
	h heapq[timerRef]
	// compactAt is the length at which push drops stale entries: a loop
	// that arms and stops a timer at every turn, none firing, would
	// otherwise keep every one of them. Amortized: the next compaction
	// waits until the queue has doubled.
	compactAt int
	idx       []int // firstWhere's frontier (indices into h)
}

type timerRef struct {
	t    *vtimer
	when int64
	seq  int
}

func (r timerRef) live() bool { return r.t.active && r.t.when == r.when && r.t.seq == r.seq }

func (q *timerQueue) reset() {
	*q = timerQueue{compactAt: minCompact}
}

func (q *timerQueue) len() int { return len(q.h) }

func (r timerRef) before(o timerRef) bool {
	return r.when < o.when || r.when == o.when && r.seq < o.seq
}

func (q *timerQueue) push(t *vtimer) {
	q.h.push(timerRef{t, t.when, t.seq})
	if len(q.h) >= q.compactAt {
		q.compact()
	}
}

func (q *timerQueue) pop() timerRef { return q.h.pop() }

func (q *timerQueue) dropStale() {
	for len(q.h) > 0 && !q.h[0].live() {
		q.pop()
	}
}

// compact keeps the live entries only.
func (q *timerQueue) compact() {
	live := q.h[:0]
	for _, r := range q.h {
		if r.live() {
			live = append(live, r)
		}
	}
	clear(q.h[len(live):])
	q.h = live
	q.h.heapify()
	q.compactAt = max(2*len(q.h), minCompact)
}

// popDue takes the live timers due by now off the queue, in firing order.
func (q *timerQueue) popDue(now int64, due []*vtimer) []*vtimer {
	for q.dropStale(); len(q.h) > 0 && q.h[0].when <= now; q.dropStale() {
		due = append(due, q.pop().t)
	}
	return due
}

// firstWhere is the earliest instant of a live timer that ok accepts (-1:
// none). The heap is walked in order from its top, so the cost is in the
// timers passed over (futile tickers), not in all of them.
func (q *timerQueue) firstWhere(ok func(*vtimer) bool) int64 {
	q.dropStale()
	if len(q.h) == 0 {
		return -1
	}
	if ok(q.h[0].t) {
		return q.h[0].when
	}
	// A small heap of indices whose entries are not yet looked at: the
	// children of every entry passed over.
	q.idx = append(q.idx[:0], 0)
	best := int64(-1)
	for len(q.idx) > 0 {
		if len(q.idx) > 64 {
			return q.scanWhere(ok) // many passed over: one pass is cheaper
		}
		// Take the least index entry (linear: the frontier stays small
		// while few timers are passed over).
		m := 0
		for k := 1; k < len(q.idx); k++ {
			if q.h[q.idx[k]].before(q.h[q.idx[m]]) {
				m = k
			}
		}
		i := q.idx[m]
		q.idx[m] = q.idx[len(q.idx)-1]
		q.idx = q.idx[:len(q.idx)-1]
		r := &q.h[i]
		if r.live() && ok(r.t) {
			best = r.when
			break
		}
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < len(q.h) {
				q.idx = append(q.idx, c)
			}
		}
	}
	return best
}

func (q *timerQueue) scanWhere(ok func(*vtimer) bool) int64 {
	best := int64(-1)
	for i := range q.h {
		if r := &q.h[i]; r.live() && (best < 0 || r.when < best) && ok(r.t) {
			best = r.when
		}
	}
	return best
}
