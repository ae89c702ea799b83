// Package selectfair has selects with several cases ready at every pass of
// a loop: Go takes one uniformly at random, so every ready case is taken
// within a few passes, whatever strategy explores the schedule.
package selectfair

import "testing"

// Both cases are ready 200 times; Go takes each about half the time.
func TestEveryReadyCaseIsTaken(t *testing.T) {
	a, b := make(chan int, 1), make(chan int, 1)
	seen := map[string]int{}
	for i := 0; i < 200; i++ {
		a <- 1
		b <- 1
		select {
		case <-a:
			seen["a"]++
			<-b
		case <-b:
			seen["b"]++
			<-a
		}
	}
	if seen["a"] == 0 || seen["b"] == 0 {
		t.Fatalf("one ready case was never taken: %v", seen)
	}
}

// A server loop takes work from a channel that always has some, beside a
// quit case: it ends because Go's select takes the quit case soon after it
// is ready.
func TestBusyLoopSeesQuit(t *testing.T) {
	work := make(chan int, 1)
	quit := make(chan struct{})
	done := make(chan int)
	go func() {
		served := 0
		for {
			select {
			case w := <-work:
				served += w
				work <- 1 // more work, always
			case <-quit:
				done <- served
				return
			}
		}
	}()
	work <- 1
	close(quit)
	<-done
}
