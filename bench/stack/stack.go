// Package stack renders SCTBench CS/stack_bad.c in Go: the popper pops on
// every iteration once the pusher has ever set flag, so it can pop more than
// was pushed.
package stack

import "sync"

const (
	size      = 10
	overflow  = -1
	underflow = -2
)

var (
	top  int
	arr  [size]uint
	m    *sync.Mutex
	flag bool
)

// Reset restores the initial state.
func Reset() {
	top = 0
	arr = [size]uint{}
	m = new(sync.Mutex)
	flag = false
}

func incTop()     { top++ }
func decTop()     { top-- }
func getTop() int { return top }

func push(stack *[size]uint, x uint) int {
	if top == size {
		return overflow
	}
	stack[getTop()] = x
	incTop()
	return 0
}

func pop(stack *[size]uint) int {
	if getTop() == 0 {
		return underflow
	}
	decTop()
	return int(stack[getTop()])
}

// Pusher pushes 0..9 and sets flag.
func Pusher(fail func(string)) {
	for i := 0; i < size; i++ {
		m.Lock()
		if push(&arr, uint(i)) == overflow {
			fail("stack: overflow")
		}
		flag = true
		m.Unlock()
	}
}

// Popper pops on every iteration after flag was set.
func Popper(fail func(string)) {
	for i := 0; i < size; i++ {
		m.Lock()
		if flag && pop(&arr) == underflow {
			fail("stack: underflow")
		}
		m.Unlock()
	}
}
