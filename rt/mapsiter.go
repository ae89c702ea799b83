//go:build go1.23

package rt

import "iter"

// MapsAll is maps.All(m): its pairs in MapRange's order, where the
// standard library's iterator ranges in the process's random order (a loop
// that wakes each entry's waiter in turn would take other paths under the
// same schedule).
func MapsAll[Map ~map[K]V, K comparable, V any](m Map) iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for it, _, _ := MapRange(m); it.Next(); {
			if !yield(it.Key(), it.Value()) {
				return
			}
		}
	}
}

// MapsKeys is maps.Keys(m), in MapRange's order.
func MapsKeys[Map ~map[K]V, K comparable, V any](m Map) iter.Seq[K] {
	return func(yield func(K) bool) {
		for it, _, _ := MapRange(m); it.Next(); {
			if !yield(it.Key()) {
				return
			}
		}
	}
}

// MapsValues is maps.Values(m), in MapRange's order.
func MapsValues[Map ~map[K]V, K comparable, V any](m Map) iter.Seq[V] {
	return func(yield func(V) bool) {
		for it, _, _ := MapRange(m); it.Next(); {
			if !yield(it.Value()) {
				return
			}
		}
	}
}
