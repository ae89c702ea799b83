package util

// Sum uses Go 1.22 features (generics, range over int).
func Sum[T int | float64](xs []T) T {
	var s T
	for i := range len(xs) {
		s += xs[i]
	}
	return s
}
