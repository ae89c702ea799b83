// Package fanin merges many producers' channels into one. Scale program
// (docs/scale.md): 1,000 producers, each with its own channel and forwarder.
package fanin

import "sync"

// Merge forwards every value of ins to the returned channel, which is
// closed once every input is.
func Merge(ins []chan int) <-chan int {
	out := make(chan int)
	var wg sync.WaitGroup
	wg.Add(len(ins))
	for _, in := range ins {
		go func(in chan int) {
			defer wg.Done()
			for v := range in {
				out <- v
			}
		}(in)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

// Produce starts n producers sending each values 1..per on its own channel.
func Produce(n, per int) []chan int {
	ins := make([]chan int, n)
	for i := range ins {
		ins[i] = make(chan int)
		go func(c chan int) {
			for v := 1; v <= per; v++ {
				c <- v
			}
			close(c)
		}(ins[i])
	}
	return ins
}
