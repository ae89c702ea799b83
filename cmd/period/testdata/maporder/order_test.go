// Package maporder reports the order in which the standard library's map
// iterators and sync.Map.Range give keys. Go randomizes it in every
// process, so these tests fail under go test with another message each
// time; Period gives the order its seed decides, the same in every
// process, so that a schedule takes the same path.
package maporder

import (
	"maps"
	"slices"
	"sync"
	"testing"
)

func numbers() map[int]string {
	m := map[int]string{}
	for i := range 12 {
		m[i] = string(rune('a' + i))
	}
	return m
}

func TestMapsKeysOrder(t *testing.T) {
	t.Fatalf("keys %v", slices.Collect(maps.Keys(numbers())))
}

func TestMapsAllOrder(t *testing.T) {
	var ks []int
	var vs string
	for k, v := range maps.All(numbers()) {
		ks = append(ks, k)
		vs += v
	}
	for v := range maps.Values(numbers()) {
		vs += v
	}
	t.Fatalf("all %v %s", ks, vs)
}

func TestSyncMapRangeOrder(t *testing.T) {
	var m sync.Map
	for i := range 12 {
		m.Store(i, i*i)
	}
	var ks []int
	m.Range(func(k, v any) bool {
		ks = append(ks, k.(int))
		if k.(int) == 3 {
			m.Delete(4) // deleted before its turn: not visited
		}
		return k.(int) < 9
	})
	t.Fatalf("range %v", ks)
}
