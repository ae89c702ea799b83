//go:build go1.21

package rt

// heapq is a binary min-heap of T, ordered by T's before: the virtual
// clock's sleepers (sleepq.go) and timers (timerq.go).
type heapq[T interface{ before(T) bool }] []T

func (h *heapq[T]) push(x T) {
	*h = append(*h, x)
	h.up(len(*h) - 1)
}

// pop takes the least element off; the heap must not be empty.
func (h *heapq[T]) pop() T {
	old := *h
	top := old[0]
	n := len(old) - 1
	old[0] = old[n]
	var zero T
	old[n] = zero
	*h = old[:n]
	h.down(0)
	return top
}

func (h heapq[T]) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].before(h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (h heapq[T]) down(i int) {
	n := len(h)
	for {
		l, m := 2*i+1, i
		if l < n && h[l].before(h[m]) {
			m = l
		}
		if r := l + 1; r < n && h[r].before(h[m]) {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// heapify restores the order after the slice was changed as a whole.
func (h heapq[T]) heapify() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}
