package varbound

import (
	"sync"
	"testing"
)

// run starts each body in its own goroutine and waits for all of them. It
// starts them last to first: Go's scheduler tends to run the newest goroutine
// first, so natively T1 usually runs first and the bugs stay rare.
func run(bodies ...func()) {
	var wg sync.WaitGroup
	wg.Add(len(bodies))
	for i := len(bodies) - 1; i >= 0; i-- {
		go func(f func()) { defer wg.Done(); f() }(bodies[i])
	}
	wg.Wait()
}

func errorf(t *testing.T) func(string) { return func(s string) { t.Error(s) } }

// Figure 1 (c=0, v=0): T2's a++ runs before T1's assertion.
// period:want fail
func TestFig1(t *testing.T) {
	Reset()
	run(func() { Fig1T1(errorf(t)) }, Inc)
}

// Figure 2 (c=1, v=1): T1 is preempted between its two reads of a; T2 increments.
// period:want fail
func TestFig2(t *testing.T) {
	Reset()
	run(func() { ReadTwice(errorf(t)) }, Inc)
}

// Figure 3 (c=2, v=1): T2 sets a=1, T1 reads 1, T2 sets a=0, T1 reads 0.
// period:want fail
func TestFig3(t *testing.T) {
	Reset()
	run(func() { ReadTwice(errorf(t)) }, Fig3T2)
}

// Figure 4 (c=2, v=2): T1 reads a=0; T2 sets a=1, b=1; T1 reads a=1 and b=1.
// period:want fail
func TestFig4(t *testing.T) {
	Reset()
	run(func() { Fig4T1(errorf(t)) }, Fig4T2)
}

// Figure 8 (c=0, v=0, t=3): both increments run before T3's assertion.
// period:want fail
func TestFig8(t *testing.T) {
	Reset()
	run(Inc, Inc, func() { Fig8T3(errorf(t)) })
}

// Figure 9 (c=1, v=1, t=3): both increments run between T1's two reads.
// period:want fail
func TestFig9(t *testing.T) {
	Reset()
	run(func() { Fig9T1(errorf(t)) }, Inc, Inc)
}

// Figure 10 (c=2, v=2, t=3): a++ runs between T1's reads of a, b++ between its reads of b.
// period:want fail
func TestFig10(t *testing.T) {
	Reset()
	run(func() { Fig10T1(errorf(t)) }, Inc, IncB)
}
