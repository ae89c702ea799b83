// A timer or deadline too far away for an instant in int64 nanoseconds (a
// scheduler's idle timer of math.MaxInt64, a deadline in the year 3000)
// never fires, as in Go: it neither fires at once nor hides the wake-ups
// before it. Every TestOK* passes under go test -race; TestLostKick has a
// genuine bug that shows only when the idle timer does not fire.
package longtimer

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const idle = time.Duration(math.MaxInt64)

// sched runs jobs at their instants, as job schedulers do: one loop waits
// on a timer set to the next job, or to idle when there is none, and is
// kicked when a job is added.
type sched struct {
	mu   sync.Mutex
	due  []time.Time // in order
	kick chan struct{}
	ran  atomic.Int32
	done chan struct{}
}

func start(ctx context.Context, kick chan struct{}) *sched {
	s := &sched{kick: kick, done: make(chan struct{})}
	go s.loop(ctx)
	return s
}

func (s *sched) loop(ctx context.Context) {
	defer close(s.done)
	t := time.NewTimer(idle)
	for {
		s.mu.Lock()
		d := idle
		if len(s.due) > 0 {
			d = time.Until(s.due[0])
		}
		s.mu.Unlock()
		t.Reset(d)
		select {
		case <-t.C:
			s.mu.Lock()
			if len(s.due) > 0 && !time.Now().Before(s.due[0]) {
				s.due = s.due[1:]
				s.ran.Add(1)
			}
			s.mu.Unlock()
		case <-s.kick:
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
}

func (s *sched) add(d time.Duration) {
	s.mu.Lock()
	s.due = append(s.due, time.Now().Add(d))
	s.mu.Unlock()
	select {
	case s.kick <- struct{}{}:
	default: // a kick is pending already
	}
}

// The loop waits on its idle timer while the test sleeps, then runs two jobs.
func TestOKIdleTimer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := start(ctx, make(chan struct{}, 1))
	time.Sleep(10 * time.Millisecond)
	s.add(300 * time.Millisecond)
	s.add(800 * time.Millisecond)
	time.Sleep(time.Second)
	if n := s.ran.Load(); n != 2 {
		t.Errorf("ran %d jobs, want 2", n)
	}
	cancel()
	<-s.done
}

// A deadline in the year 3000 and a timeout of the longest duration do not
// expire during the test.
func TestOKFarDeadline(t *testing.T) {
	far, cancel := context.WithDeadline(context.Background(), time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC))
	defer cancel()
	longest, cancel2 := context.WithTimeout(context.Background(), idle)
	defer cancel2()
	got := make(chan string, 1)
	go func() {
		select {
		case <-far.Done():
			got <- "far deadline expired"
		case <-longest.Done():
			got <- "longest timeout expired"
		case <-time.After(time.Second):
			got <- ""
		}
	}()
	if msg := <-got; msg != "" {
		t.Error(msg)
	}
}

// The kick is sent without blocking on an unbuffered channel: lost when the
// loop is not in its select yet, and the loop then sleeps on its idle timer
// with the job queued.
func TestLostKick(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := start(ctx, make(chan struct{}))
	s.add(100 * time.Millisecond)
	time.Sleep(time.Second)
	if s.ran.Load() != 1 {
		t.Error("the job never ran")
	}
	cancel()
	<-s.done
}
