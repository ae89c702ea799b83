package addall

import (
	"fmt"
	"testing"
)

// input is the program input: u, and the initial shape of the shared v.
type input struct {
	vCnt, vSize int
	uCnt        int
}

// run makes two goroutines each call AddAll(v, u) on the shared v.
func run(t *testing.T, in input) {
	Reset()
	vElems := make([]int, in.vCnt)
	uElems := make([]int, in.uCnt)
	for i := range uElems {
		uElems[i] = i + 1
	}
	v, u := NewVector(in.vSize, vElems...), NewVector(in.uCnt, uElems...)
	errs := make(chan error, 2)
	go func() { errs <- AddAll(v, u) }()
	go func() { errs <- AddAll(v, u) }()
	for i := 0; i < 2; i++ {
		if err := <-errs; err != nil {
			t.Errorf("%+v: %v", in, err)
		}
	}
	if got, want := len(Elems(v)), in.vCnt+2*in.uCnt; got != want {
		t.Errorf("%+v: v has %d elements, want %d", in, got, want)
	}
}

func runAll(t *testing.T, inputs []input) {
	for _, in := range inputs {
		t.Logf("input %s", fmt.Sprintf("%+v", in))
		run(t, in)
	}
}

// Bug: with v = {cnt 1, size 5} and u.cnt = 3, T computes numElem = 4, T' runs addAll
// completely (cnt 4), T skips growing and finds 5 < 3 + 4. Smaller u never fail.
// period:want fail
func TestAddAll(t *testing.T) {
	runAll(t, []input{{1, 5, 1}, {1, 5, 2}, {1, 5, 3}})
}

// Correct for these inputs: u.cnt <= 2 leaves room even for the stale numElem.
// period:want none
func TestAddAllSmallInputs(t *testing.T) {
	runAll(t, []input{{1, 5, 1}, {1, 5, 2}, {0, 4, 2}})
}
