package detachedwork

import (
	"testing"
	"time"
)

var sink int

// work touches a buffer of its own: no key point, only plain accesses.
func work(rounds int) int {
	s := 0
	buf := make([]int, 1<<16)
	for r := 0; r < rounds; r++ {
		for i := range buf {
			buf[i] += i ^ r
			s += buf[i]
		}
	}
	return s
}

// TestWorkBeforeDeadline gives work of about 10 ms natively 4 s to
// finish (a DoS battery's "did not return within 4s"). Under Period the
// work takes seconds of real time and is detached; its accesses move the
// clock (4 a nanosecond), so the deadline is not reached: the clock
// jumped to it at the detach before.
func TestWorkBeforeDeadline(t *testing.T) {
	ch := make(chan int, 1)
	go func() { ch <- work(300) }()
	select {
	case v := <-ch:
		sink = v
	case <-time.After(4 * time.Second):
		t.Fatal("did not return within 4s")
	}
}
