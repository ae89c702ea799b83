package creator

import (
	"sync"
	"testing"
)

// TestRecvAfterGo leaves a goroutine blocked. Its go statement is followed
// at once by a receive, which in the instrumented code is a call of a
// generic hook that the compiler inlines: the leak report must name the test
// as the goroutine's creator (it named rt.Recv[...], and asaskevich/EventBus's
// TestSubscribeAsync named the inlined (*EventBus).WaitAsync).
func TestRecvAfterGo(t *testing.T) {
	ch := make(chan int)
	stuck := make(chan int)
	go func() {
		ch <- 1
		<-stuck
	}()
	<-ch
}

// TestCreatedInAFunction: the creator is the function holding the go
// statement, not the test.
func TestCreatedInAFunction(t *testing.T) {
	ch := make(chan int)
	Start(ch, make(chan int))
	<-ch
}

// TestWaitGroupGo: a goroutine that wg.Go started names the function that
// called Go as its creator, not Period's hook for it (open-feature/go-sdk's
// event executor leaks named rt.WGGo).
func TestWaitGroupGo(t *testing.T) {
	var wg sync.WaitGroup
	ch := make(chan int)
	stuck := make(chan int)
	wg.Go(func() {
		ch <- 1
		<-stuck
	})
	<-ch
}
