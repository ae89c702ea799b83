package queue

import "testing"

func TestPushPop(t *testing.T) {
	mark("queue.TestPushPop")
	q := New[int](1)
	q.Push(7)
	if got := q.Pop(); got != 7 {
		t.Fatalf("got %d", got)
	}
}
