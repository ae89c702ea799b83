// Package pull turns push iterators fed by goroutines into pull iterators.
package pull

import (
	"iter"
	"sync"
)

// FromChan yields what c delivers until it is closed.
func FromChan[T any](c <-chan T) iter.Seq[T] {
	return func(yield func(T) bool) {
		for v := range c {
			if !yield(v) {
				return
			}
		}
	}
}

// Squares computes i*i for i < n in goroutines, yielding them in order.
func Squares(n int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		out := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out[i] = i * i
			}()
		}
		wg.Wait()
		for i, v := range out {
			if !yield(i, v) {
				return
			}
		}
	}
}

// Sum pulls every value of seq.
func Sum(seq iter.Seq[int]) int {
	next, stop := iter.Pull(seq)
	defer stop()
	s := 0
	for {
		v, ok := next()
		if !ok {
			return s
		}
		s += v
	}
}
