package parallelsub

import (
	"strconv"
	"testing"
)

// TestLoopVarCopied copies the loop variable before t.Parallel: t.Run does
// not return before that, so there is no race (go test -race agrees).
func TestLoopVarCopied(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			n := n
			t.Parallel()
			if n == 0 {
				t.Error("zero")
			}
		})
	}
}

// TestLoopVarAfterParallel reads the loop variable after t.Parallel, while
// the loop goes on writing it: a race (the classic loop-closure bug).
func TestLoopVarAfterParallel(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			t.Parallel()
			if n == 0 {
				t.Error("zero")
			}
		})
	}
}
