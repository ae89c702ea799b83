package goctxleak

import "testing"

// Bug: check-then-send. Interleaving: after handing over 1 the producer checks ctx
// (not yet cancelled) before First's deferred cancel, then blocks on out <- 2 forever.
// period:want leak
func TestFirst(t *testing.T) {
	if v := First(Produce); v != 1 {
		t.Fatalf("first = %d", v)
	}
}

// period:want none
func TestFirstFixed(t *testing.T) {
	if v := First(ProduceFixed); v != 1 {
		t.Fatalf("first = %d", v)
	}
}
