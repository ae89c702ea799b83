// Package twostage renders SCTBench CS/twostage_bad.c in Go: 1 writer(s) update data1 and
// then data2 in two separate critical sections; a reader that runs between
// them sees data2 != data1 + 1.
package twostage

import "sync"

// Writers is the number of writer goroutines (iTThreads); there is one reader.
const Writers = 1

var (
	data1Value, data2Value int
	data1Lock, data2Lock   *sync.Mutex
)

// Reset restores the initial state.
func Reset() {
	data1Value, data2Value = 0, 0
	data1Lock, data2Lock = new(sync.Mutex), new(sync.Mutex)
}

// FuncA writes data1, then data2 from data1.
func FuncA() {
	data1Lock.Lock()
	data1Value = 1
	data1Lock.Unlock()

	data2Lock.Lock()
	data2Value = data1Value + 1
	data2Lock.Unlock()
}

// FuncB reads both and checks data2 == data1 + 1.
func FuncB(fail func(string)) {
	data1Lock.Lock()
	if data1Value == 0 {
		data1Lock.Unlock()
		return
	}
	t1 := data1Value
	data1Lock.Unlock()

	data2Lock.Lock()
	t2 := data2Value
	data2Lock.Unlock()

	if t2 != t1+1 {
		fail("twostage: data2 != data1 + 1")
	}
}
