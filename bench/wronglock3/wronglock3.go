// Package wronglock3 renders SCTBench CS/wronglock_3_bad.c in Go: one goroutine increments
// dataValue under dataLock, 3 others under thisLock; two different locks
// do not exclude each other.
package wronglock3

import "sync"

// BThreads is the number of goroutines running FuncB (iNum2); one runs FuncA.
const BThreads = 3

var (
	dataValue          int
	dataLock, thisLock *sync.Mutex
)

// Reset restores the initial state.
func Reset() {
	dataValue = 0
	dataLock, thisLock = new(sync.Mutex), new(sync.Mutex)
}

// FuncA increments under dataLock and checks that nobody interfered.
func FuncA(fail func(string)) {
	dataLock.Lock()
	x := dataValue
	dataValue++
	if dataValue != x+1 {
		fail("wronglock3: dataValue changed under dataLock")
	}
	dataLock.Unlock()
}

// FuncB increments under the other lock.
func FuncB() {
	thisLock.Lock()
	dataValue++
	thisLock.Unlock()
}
