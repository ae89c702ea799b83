//go:build go1.25

//go:debug asynctimerchan=0

package races

import (
	"testing"
	"testing/synctest"
)

// synctest.Wait returns once every other goroutine of the bubble is
// blocked or gone: what they did before is ordered before it (the race
// detector's annotations of synctest), as grpc's and temporal's tests
// expect of a callback that sets a flag before the test looks at it.

var syncFlag, syncExited int

// period:want none
func TestSynctestWaitOrdersBlockedAndExited(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan int)
		go func() {
			syncFlag = 1
			<-ch // blocks
		}()
		go func() { syncExited = 1 }() // ends
		synctest.Wait()
		sink = syncFlag + syncExited
		close(ch)
	})
}

// A goroutine that Wait saw blocked and that runs again afterwards is not
// ordered with what the test does next.
// period:want race
func TestSynctestWaitOrdersNothingAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan int)
		done := make(chan bool)
		go func() {
			<-ch
			syncFlag = 2
			done <- true
		}()
		synctest.Wait()
		close(ch)
		sink = syncFlag
		<-done
	})
}
