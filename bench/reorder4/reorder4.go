// Package reorder4 renders SCTBench CS/reorder_4_bad.c in Go: 3 setters write
// a = 1 and then b = -1 with no synchronisation; one checker expects to see
// the pair either untouched or complete.
package reorder4

// Setters is the number of setter goroutines (iSet); there is one checker.
const Setters = 3

var a, b int

// Reset restores the initial state.
func Reset() { a, b = 0, 0 }

// Set writes the pair.
func Set() {
	a = 1
	b = -1
}

// Check fails on a half-written pair.
func Check(fail func(string)) {
	if !((a == 0 && b == 0) || (a == 1 && b == -1)) {
		fail("reorder_4: saw a half-written (a, b)")
	}
}
