// Package ring passes a token around a ring of goroutines. Scale program
// (docs/scale.md, issue 11 item 2): 1,000 goroutines and a schedule of about
// a million steps, with a timer armed and stopped at every pass, so that the
// memory a schedule keeps per step can be measured.
package ring

import (
	"sync"
	"time"
)

// Run passes a token rounds times around a ring of n goroutines; each
// holder arms a timer, stops it and hands the token on. It returns the
// number of passes.
func Run(n, rounds int) int {
	chs := make([]chan int, n)
	for i := range chs {
		chs[i] = make(chan int)
	}
	done := make(chan int)
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func(i int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				v := <-chs[i]
				t := time.NewTimer(time.Hour)
				t.Stop()
				if i == n-1 && r == rounds-1 {
					done <- v + 1
					continue
				}
				chs[(i+1)%n] <- v + 1
			}
		}(i)
	}
	chs[0] <- 0
	v := <-done
	wg.Wait()
	return v
}
