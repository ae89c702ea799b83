// Package arithmeticprog renders SCTBench CS/arithmetic_prog_bad.c in Go (a
// smoke test): a one-slot producer/consumer sums the consumer's indices; the
// final assertion is wrong in every schedule.
package arithmeticprog

import "sync"

const n = 3

var (
	num         int
	total       int
	flag        bool
	m           *sync.Mutex
	empty, full *sync.Cond
)

// Reset restores the initial state.
func Reset() {
	num, total, flag = 0, 0, false
	m = new(sync.Mutex)
	empty, full = sync.NewCond(m), sync.NewCond(m)
}

// Producer produces n items.
func Producer() {
	for i := 0; i < n; i++ {
		m.Lock()
		for num > 0 {
			empty.Wait()
		}
		num++
		m.Unlock()
		full.Signal()
	}
}

// Consumer consumes n items, adding its index j each time and n at the end.
func Consumer() {
	j := 0
	for j < n {
		m.Lock()
		for num == 0 {
			full.Wait()
		}
		total = total + j
		num--
		m.Unlock()
		empty.Signal()
		j++
	}
	total = total + j
	flag = true
}

// Result returns flag and total; call it after both goroutines returned.
func Result() (bool, int) { return flag, total }
