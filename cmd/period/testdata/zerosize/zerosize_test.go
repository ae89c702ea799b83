package zerosize

import "testing"

// Under go test both &nopSigner{} stay on the stack (NewScheme and Signer
// are inlined) and compare equal; the hooks in Signer make the scheme's
// escape, and a pointer on the heap differs from one on the stack unless
// Period keeps them all on the heap.
func TestSameZeroSizeSigner(t *testing.T) {
	var want Signer = &nopSigner{}
	if got := NewScheme().Signer(); got != want {
		t.Errorf("the scheme's signer is not the nop signer")
	}
}

// The same with new.
func TestSameZeroSizeNew(t *testing.T) {
	var want Signer = new(nopSigner)
	if got := NewSchemeNew().Signer(); got != want {
		t.Errorf("the scheme's signer is not the nop signer")
	}
}
