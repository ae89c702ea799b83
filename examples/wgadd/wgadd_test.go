package wgadd

import "testing"

// Bug: wg.Add inside the goroutine. Interleaving: the last worker receives its job, the
// caller runs on to wg.Wait (counter 0) and reads total before the worker adds to it.
// period:want fail
func TestSum(t *testing.T) {
	if got := Sum([]int{1, 2}); got != 3 {
		t.Fatalf("Sum = %d, want 3", got)
	}
}

// period:want none
func TestSumFixed(t *testing.T) {
	if got := SumFixed([]int{1, 2}); got != 3 {
		t.Fatalf("SumFixed = %d, want 3", got)
	}
}
