// Package creator starts a goroutine that stays blocked.
package creator

// Start starts a goroutine that hands over one value and then waits on
// stuck forever.
func Start(ch chan<- int, stuck <-chan int) {
	go func() {
		ch <- 1
		<-stuck
	}()
}
