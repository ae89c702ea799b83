package realwait

import (
	"sync"
	"time"
)

// sched runs tasks at their time on its own goroutine, started by init
// (sys) like xtaci/kcp-go's SystemTimedSched: outside Period's control.
type sched struct {
	mu    sync.Mutex
	tasks []task
	wake  chan struct{}
}

type task struct {
	at time.Time
	f  func()
}

var sys = newSched()

func newSched() *sched {
	s := &sched{wake: make(chan struct{}, 1)}
	go s.run()
	return s
}

func (s *sched) put(f func(), at time.Time) {
	s.mu.Lock()
	s.tasks = append(s.tasks, task{at, f})
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *sched) run() {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		s.mu.Lock()
		now := time.Now()
		var due []task
		var rest []task
		var next time.Time
		for _, t := range s.tasks {
			if !t.at.After(now) {
				due = append(due, t)
			} else {
				rest = append(rest, t)
				if next.IsZero() || t.at.Before(next) {
					next = t.at
				}
			}
		}
		s.tasks = rest
		s.mu.Unlock()
		for _, t := range due {
			t.f()
		}
		if len(due) > 0 {
			continue
		}
		if !next.IsZero() {
			timer.Reset(time.Until(next))
			select {
			case <-timer.C:
			case <-s.wake:
				timer.Stop()
			}
		} else {
			<-s.wake
		}
	}
}

// Conn signals a reader every 10 ms of ticks until n of them.
type Conn struct {
	mu    sync.Mutex
	n     int
	ready chan struct{}
}

func NewConn() *Conn {
	c := &Conn{ready: make(chan struct{}, 1)}
	sys.put(c.update, time.Now())
	return c
}

func (c *Conn) update() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	select {
	case c.ready <- struct{}{}:
	default:
	}
	sys.put(c.update, time.Now().Add(10*time.Millisecond))
}

// Wait waits for count updates, or the timeout.
func (c *Conn) Wait(count int, timeout time.Duration) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		n := c.n
		c.mu.Unlock()
		if n >= count {
			return true
		}
		select {
		case <-c.ready:
		case <-deadline.C:
			return false
		}
	}
}

// Queue hands items to a worker waiting on a sync.Cond; Push runs on the
// scheduler (outside control), as kcp-go's timed updates feed its
// post-process workers.
type Queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items []int
}

func NewQueue() *Queue {
	q := &Queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// PushLater pushes v from the scheduler's goroutine after d.
func (q *Queue) PushLater(v int, d time.Duration) {
	sys.put(func() {
		q.mu.Lock()
		q.items = append(q.items, v)
		q.mu.Unlock()
		q.cond.Signal()
	}, time.Now().Add(d))
}

// Pop waits for an item.
func (q *Queue) Pop() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 {
		q.cond.Wait()
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v
}

// A goroutine init started waits on a Cond, under a lock the test takes
// too, for the next round.
var (
	roundMu   sync.Mutex
	roundCond = sync.NewCond(&roundMu)
	round     int
	acked     = make(chan int, 1)
)

func init() {
	go func() {
		seen := 0
		for {
			roundMu.Lock()
			for round == seen {
				roundCond.Wait()
			}
			seen = round
			roundMu.Unlock()
			acked <- seen
		}
	}()
}

// NextRound starts the next round and waits for the waiter to see it.
func NextRound(timeout time.Duration) (want, got int, ok bool) {
	roundMu.Lock()
	round++
	want = round
	roundMu.Unlock()
	roundCond.Signal()
	select {
	case got = <-acked:
		return want, got, true
	case <-time.After(timeout):
		return want, 0, false
	}
}
