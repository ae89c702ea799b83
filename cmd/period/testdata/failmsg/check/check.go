// Package check asserts as testify's assert does: through an interface of
// its own, without importing package testing.
package check

// TestingT is what check needs of a *testing.T.
type TestingT interface {
	Errorf(format string, args ...any)
}

// Equal reports whether got is want, failing t if not.
func Equal(t TestingT, want, got int32) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	if want != got {
		t.Errorf("\n\tError:      \tNot equal: \n\t            \texpected: %d\n\t            \tactual  : %d", want, got)
		return false
	}
	return true
}
