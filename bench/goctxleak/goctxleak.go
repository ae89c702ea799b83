// Package goctxleak is a Go-specific pattern: a producer that checks its
// context and then sends, instead of selecting on both.
package goctxleak

import "context"

// Produce sends 1, 2, 3 on out until ctx is cancelled. It checks ctx before
// a blocking send: if the consumer cancels and stops receiving after the
// check, the send blocks forever (goroutine leak).
func Produce(ctx context.Context, out chan<- int) {
	for i := 1; i <= 3; i++ {
		if ctx.Err() != nil {
			return
		}
		out <- i
	}
	close(out)
}

// ProduceFixed selects on the send and on ctx.Done.
func ProduceFixed(ctx context.Context, out chan<- int) {
	defer close(out)
	for i := 1; i <= 3; i++ {
		select {
		case out <- i:
		case <-ctx.Done():
			return
		}
	}
}

// First returns the first value produced and cancels the producer.
func First(produce func(context.Context, chan<- int)) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan int)
	go produce(ctx, out)
	return <-out
}
