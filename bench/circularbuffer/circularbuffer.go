// Package circularbuffer renders SCTBench CS/circular_buffer_bad.c in Go: a
// producer and a consumer take turns through send/receive flags, but the
// consumer compares against its loop index, which also advances on
// iterations where it had nothing to receive.
package circularbuffer

import "sync"

const (
	bufferMax = 10
	n         = 7
	errValue  = -1
)

var (
	buffer        [bufferMax]int
	first, next   int
	bufferSize    int
	send, receive bool
	m             *sync.Mutex
)

// Reset restores the state main() sets up.
func Reset() {
	m = new(sync.Mutex)
	buffer = [bufferMax]int{}
	bufferSize = 10
	first, next = 0, 0
	send, receive = true, false
}

func removeLogElement() int {
	if next > 0 && first < bufferSize {
		first++
		return buffer[first-1]
	}
	return errValue
}

func insertLogElement(b int) int {
	if next < bufferSize && bufferSize > 0 {
		buffer[next] = b
		next = (next + 1) % bufferSize
		return b
	}
	return errValue
}

// Producer inserts its loop index whenever it is its turn.
func Producer() {
	for i := 0; i < n; i++ {
		m.Lock()
		if send {
			insertLogElement(i)
			send = false
			receive = true
		}
		m.Unlock()
	}
}

// Consumer removes an element whenever it is its turn and expects its own
// loop index.
func Consumer(fail func(string)) {
	for i := 0; i < n; i++ {
		m.Lock()
		if receive {
			if removeLogElement() != i {
				fail("circular_buffer: removed element != loop index")
			}
			receive = false
			send = true
		}
		m.Unlock()
	}
}
