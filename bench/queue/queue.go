// Package queue renders SCTBench CS/queue_bad.c in Go: a producer and a
// consumer take turns on a bounded queue through enqueue/dequeue flags; the
// consumer compares each dequeued element with stored[i] for its own loop
// index i, which also advances on iterations where it was not its turn.
package queue

import "sync"

const size = 20

type queueType struct {
	element    [size]int
	head, tail int
	amount     int
}

var (
	mutex                    *sync.Mutex
	stored                   [size]int
	enqueueFlag, dequeueFlag bool
	q                        queueType
)

// Reset restores the state main() sets up; it reports whether the fresh
// queue is empty, as main() asserts.
func Reset() bool {
	mutex = new(sync.Mutex)
	stored = [size]int{}
	enqueueFlag, dequeueFlag = true, false
	q = queueType{}
	return empty(&q)
}

func empty(q *queueType) bool { return q.head == q.tail }

func enqueue(q *queueType, x int) {
	q.element[q.tail] = x
	q.amount++
	if q.tail == size {
		q.tail = 1
	} else {
		q.tail++
	}
}

func dequeue(q *queueType) int {
	x := q.element[q.head]
	q.amount--
	if q.head == size {
		q.head = 1
	} else {
		q.head++
	}
	return x
}

// Producer enqueues 0 and then a new value whenever it is its turn.
func Producer(fail func(string)) {
	value := 0
	mutex.Lock()
	enqueue(&q, value)
	stored[0] = value
	if empty(&q) {
		fail("queue: empty after enqueue")
	}
	mutex.Unlock()
	for i := 0; i < size-1; i++ {
		mutex.Lock()
		if enqueueFlag {
			value++
			enqueue(&q, value)
			stored[i+1] = value
			enqueueFlag = false
			dequeueFlag = true
		}
		mutex.Unlock()
	}
}

// Consumer dequeues whenever it is its turn and checks stored[i].
func Consumer(fail func(string)) {
	for i := 0; i < size; i++ {
		mutex.Lock()
		if dequeueFlag {
			if dequeue(&q) != stored[i] {
				fail("queue: dequeued element != stored[i]")
			}
			dequeueFlag = false
			enqueueFlag = true
		}
		mutex.Unlock()
	}
}
