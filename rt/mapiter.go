//go:build go1.21

package rt

import (
	"cmp"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unsafe"
)

// Go randomizes the iteration order of maps in every process, with
// randomness Period cannot seed: a program that ranges over a map would take
// other paths under the same schedule. The instrumented code therefore
// ranges over maps through MapRange, in the order of MapKeys:
//
//	for it, k, v := rt.MapRange(m); it.Next(); { k, v = it.Key(), it.Value(); ... }
//
// The keys are sorted, then shuffled with the run's random source (the one
// math/rand draws from under control): the same schedule gives the same
// orders, and two ranges over one map differ as they do under go test (k8s
// apimachinery's CBOR test encodes a map 200 times and wants more than one
// byte sequence). The sorted order depends only on the keys' values, except
// for pointers, channels and interface values holding them, which are
// ordered by address: the one part of the order that can differ from one
// process to another.

// MapKeys returns the keys of m in an order the run's random source decides
// (shuffleKeys) from a deterministic one: the natural order for integers,
// floats and strings (and types defined on them); for other keys a total
// order computed on their values (see compareValues). NaN keys, each a
// distinct entry, are all returned.
func MapKeys[M ~map[K]V, K comparable, V any](m M) []K {
	keys := sortedKeys(m)
	shuffleKeys(keys)
	return keys
}

// sortedKeys returns the keys of m in MapKeys' deterministic order, before
// the shuffle.
func sortedKeys[M ~map[K]V, K comparable, V any](m M) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortKeys(keys)
	return keys
}

// shuffleKeys permutes keys with a draw from the run's random source, or,
// outside control, from the process's.
func shuffleKeys[K any](keys []K) {
	if len(keys) < 2 {
		return
	}
	x := randSource().Uint64()
	for i := len(keys) - 1; i > 0; i-- {
		// splitmix64: one draw from the source seeds the whole permutation.
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		z ^= z >> 31
		j := int(z % uint64(i+1))
		keys[i], keys[j] = keys[j], keys[i]
	}
}

// sortKeys sorts keys in place: ordered kinds are sorted as the basic type
// they share their memory layout with, other kinds through reflect.
func sortKeys[K comparable](keys []K) {
	if len(keys) < 2 {
		return
	}
	p := unsafe.Pointer(&keys)
	switch reflect.TypeOf((*K)(nil)).Elem().Kind() {
	case reflect.Int:
		slices.Sort(*(*[]int)(p))
	case reflect.Int8:
		slices.Sort(*(*[]int8)(p))
	case reflect.Int16:
		slices.Sort(*(*[]int16)(p))
	case reflect.Int32:
		slices.Sort(*(*[]int32)(p))
	case reflect.Int64:
		slices.Sort(*(*[]int64)(p))
	case reflect.Uint:
		slices.Sort(*(*[]uint)(p))
	case reflect.Uint8:
		slices.Sort(*(*[]uint8)(p))
	case reflect.Uint16:
		slices.Sort(*(*[]uint16)(p))
	case reflect.Uint32:
		slices.Sort(*(*[]uint32)(p))
	case reflect.Uint64:
		slices.Sort(*(*[]uint64)(p))
	case reflect.Uintptr:
		slices.Sort(*(*[]uintptr)(p))
	case reflect.String:
		slices.Sort(*(*[]string)(p))
	case reflect.Float32:
		slices.SortFunc(*(*[]float32)(p), func(a, b float32) int { return compareFloat(float64(a), float64(b)) })
	case reflect.Float64:
		slices.SortFunc(*(*[]float64)(p), compareFloat)
	default:
		sort.Sort(reflectKeys[K]{keys, reflect.ValueOf(keys)})
	}
}

// reflectKeys sorts keys by compareValues; Index on a slice value does not
// allocate.
type reflectKeys[K any] struct {
	keys []K
	rv   reflect.Value
}

func (s reflectKeys[K]) Len() int      { return len(s.keys) }
func (s reflectKeys[K]) Swap(i, j int) { s.keys[i], s.keys[j] = s.keys[j], s.keys[i] }
func (s reflectKeys[K]) Less(i, j int) bool {
	return compareValues(s.rv.Index(i), s.rv.Index(j), 0) < 0
}

// compareFloat orders floats naturally, NaNs last (ordered by their bits).
func compareFloat(a, b float64) int {
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return cmp.Compare(math.Float64bits(a), math.Float64bits(b))
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	// -0 and +0 are one key; as values, -0 first.
	return cmp.Compare(math.Float64bits(b), math.Float64bits(a))
}

// maxDepth bounds the recursion of compareValues through slices (a slice
// type may contain itself); deeper values compare by address.
const maxDepth = 64

// compareValues is a total order on values of one type: numbers and strings
// naturally (NaNs last), false before true, arrays and structs element by
// element (blank fields skipped: they do not take part in ==), interfaces nil
// first, then by dynamic type (its string, then its package path, then its
// descriptor's address, fixed in a binary), then by value; pointers,
// channels, maps and funcs by address, the only part that can differ between
// processes. Slices (for values, never keys) element by element, then by
// length.
func compareValues(a, b reflect.Value, depth int) int {
	switch a.Kind() {
	case reflect.Bool:
		ab, bb := a.Bool(), b.Bool()
		switch {
		case ab == bb:
			return 0
		case !ab:
			return -1
		}
		return 1
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return compareFloat(a.Float(), b.Float())
	case reflect.Complex64, reflect.Complex128:
		ac, bc := a.Complex(), b.Complex()
		if c := compareFloat(real(ac), real(bc)); c != 0 {
			return c
		}
		return compareFloat(imag(ac), imag(bc))
	case reflect.String:
		return strings.Compare(a.String(), b.String())
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c := compareValues(a.Index(i), b.Index(i), depth); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Struct:
		t := a.Type()
		for i := 0; i < a.NumField(); i++ {
			if t.Field(i).Name == "_" {
				continue
			}
			if c := compareValues(a.Field(i), b.Field(i), depth); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Interface:
		an, bn := a.IsNil(), b.IsNil()
		switch {
		case an && bn:
			return 0
		case an:
			return -1
		case bn:
			return 1
		}
		ae, be := a.Elem(), b.Elem()
		if at, bt := ae.Type(), be.Type(); at != bt {
			if c := strings.Compare(at.String(), bt.String()); c != 0 {
				return c
			}
			if c := strings.Compare(at.PkgPath(), bt.PkgPath()); c != 0 {
				return c
			}
			return cmp.Compare(reflect.ValueOf(at).Pointer(), reflect.ValueOf(bt).Pointer())
		}
		return compareValues(ae, be, depth)
	case reflect.Slice:
		if depth < maxDepth {
			n := min(a.Len(), b.Len())
			for i := 0; i < n; i++ {
				if c := compareValues(a.Index(i), b.Index(i), depth+1); c != 0 {
					return c
				}
			}
			return cmp.Compare(a.Len(), b.Len())
		}
		if c := cmp.Compare(a.Pointer(), b.Pointer()); c != 0 {
			return c
		}
		return cmp.Compare(a.Len(), b.Len())
	case reflect.Pointer, reflect.Chan, reflect.Map, reflect.Func, reflect.UnsafePointer:
		return cmp.Compare(a.Pointer(), b.Pointer())
	}
	return 0
}

// MapIter iterates over a map in the order of MapKeys (see MapRange).
type MapIter[K comparable, V any] struct {
	m    map[K]V
	keys []K
	i    int
	k    K
	v    V
	nan  []V // values of the NaN keys (k != k), in the order they come
	nanI int
}

// MapRange starts a range over m in MapKeys order; it also returns zero
// values of the key and value types, with which the rewritten loop declares
// its iteration variables. As with range, the value of a key is read when
// its turn comes, a key deleted before its turn is not produced, and keys
// added during the loop are not produced. Keys that are not equal to
// themselves (NaN) cannot be looked up: their values are those of the start
// of the loop, and they are produced while the map holds such a key.
func MapRange[M ~map[K]V, K comparable, V any](m M) (it *MapIter[K, V], k K, v V) {
	it = &MapIter[K, V]{m: m, keys: MapKeys(m)}
	for _, key := range it.keys {
		if key != key {
			it.nan = nanValues(it.m, it.keys)
			break
		}
	}
	return it, k, v
}

// nanValues returns the values of the NaN keys of m, ordered as keys orders
// them (keys equal by compareValues by their values).
func nanValues[K comparable, V any](m map[K]V, keys []K) []V {
	type entry struct {
		k K
		v V
	}
	var es []entry
	for k, v := range m {
		if k != k {
			es = append(es, entry{k, v})
		}
	}
	ev := reflect.ValueOf(es)
	sort.Slice(es, func(i, j int) bool {
		return compareValues(ev.Index(i), ev.Index(j), 0) < 0
	})
	vs := make([]V, len(es))
	for i := range es {
		vs[i] = es[i].v
	}
	return vs
}

// Next moves to the next key still in the map; false at the end.
func (it *MapIter[K, V]) Next() bool {
	for it.i < len(it.keys) {
		k := it.keys[it.i]
		it.i++
		if k != k {
			v := it.nan[it.nanI]
			it.nanI++
			if !hasNaN(it.m) {
				continue // clear(m) removed it
			}
			it.k, it.v = k, v
			return true
		}
		if v, ok := it.m[k]; ok {
			it.k, it.v = k, v
			return true
		}
	}
	var zk K
	var zv V
	it.k, it.v = zk, zv // let the keys and values go
	it.keys, it.nan = nil, nil
	return false
}

// Key is the current key.
func (it *MapIter[K, V]) Key() K { return it.k }

// Value is the current key's value.
func (it *MapIter[K, V]) Value() V { return it.v }

func hasNaN[K comparable, V any](m map[K]V) bool {
	for k := range m {
		if k != k {
			return true
		}
	}
	return false
}
