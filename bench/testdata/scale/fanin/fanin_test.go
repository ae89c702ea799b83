package fanin

import "testing"

// period:want none
func TestFanIn1000(t *testing.T) {
	sum := 0
	for v := range Merge(Produce(1000, 3)) {
		sum += v
	}
	if sum != 1000*6 {
		t.Errorf("sum = %d, want %d", sum, 1000*6)
	}
}

// The consumer stops at the first value above the others' mark: the
// forwarders still holding a value block for ever on out.
// period:want leak
func TestFanInBuggy1000(t *testing.T) {
	out := Merge(Produce(1000, 3))
	n := 0
	for v := range out {
		n++
		if v == 3 {
			break
		}
	}
	if n == 0 {
		t.Error("no value")
	}
}
