package queue_test

import (
	"os"
	"testing"

	"example.com/mod122/queue"
)

// Names the driver would like for its imports: it must pick others.
var periodrt = "taken"

func periodtesting() string { return periodrt }

func TestTotal(t *testing.T) {
	queue.Mark("queue_test.TestTotal")
	if got := queue.Total([]int{1, 2, 3}); got != 6 {
		t.Fatalf("got %d", got)
	}
	_ = os.Getenv
	_ = periodtesting
}

func TestExternalGoroutine(t *testing.T) {
	queue.Mark("queue_test.TestExternalGoroutine")
	q := queue.New[string](0)
	go q.Push("x")
	if q.Pop() != "x" {
		t.Fatal("lost the value")
	}
}
