// Package pipeline is a three-stage channel pipeline: generate, square, sum.
// Every stage closes its output when its input is exhausted, so nothing leaks.
package pipeline

// Generate sends nums and closes the channel.
func Generate(nums ...int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, n := range nums {
			out <- n
		}
	}()
	return out
}

// Square squares every value of in.
func Square(in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for n := range in {
			out <- n * n
		}
	}()
	return out
}

// Merge fans two channels into one, closing it when both are drained.
func Merge(a, b <-chan int) <-chan int {
	out := make(chan int)
	done := make(chan struct{})
	forward := func(c <-chan int) {
		for v := range c {
			out <- v
		}
		done <- struct{}{}
	}
	go forward(a)
	go forward(b)
	go func() {
		<-done
		<-done
		close(out)
	}()
	return out
}

// Sum adds everything received on in.
func Sum(in <-chan int) int {
	s := 0
	for v := range in {
		s += v
	}
	return s
}
