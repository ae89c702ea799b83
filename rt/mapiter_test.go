//go:build go1.21

package rt

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

type ID int

type pt struct {
	X, Y int
	S    string
}

type label string

func TestMapKeysOrdered(t *testing.T) {
	m := map[ID]bool{}
	for i := 40; i >= -40; i -= 3 {
		m[ID(i)] = true
	}
	ks := sortedKeys(m)
	if !slices.IsSorted(ks) || len(ks) != len(m) {
		t.Errorf("ints: %v", ks)
	}
	s := map[string]int{}
	for i := 0; i < 100; i++ {
		s[strconv.Itoa(i)] = i
	}
	if ss := sortedKeys(s); !slices.IsSorted(ss) || len(ss) != 100 {
		t.Errorf("strings: %v", ss)
	}
	u := map[uint8]bool{200: true, 3: true, 255: true, 0: true}
	if got := sortedKeys(u); !reflect.DeepEqual(got, []uint8{0, 3, 200, 255}) {
		t.Errorf("uint8: %v", got)
	}
}

func TestMapKeysNaN(t *testing.T) {
	nan2 := math.Float64frombits(math.Float64bits(math.NaN()) | 1)
	m := map[float64]string{math.NaN(): "a", 2: "two", math.Inf(-1): "-inf", -1: "m1"}
	m[math.NaN()] = "b"
	m[nan2] = "c"
	ks := sortedKeys(m)
	if len(ks) != 6 {
		t.Fatalf("%d keys, want 6 (NaN keys lost?)", len(ks))
	}
	if ks[0] != math.Inf(-1) || ks[1] != -1 || ks[2] != 2 {
		t.Errorf("numbers first, in order: %v", ks)
	}
	for _, k := range ks[3:] {
		if k == k {
			t.Errorf("NaNs last: %v", ks)
		}
	}
	if math.Float64bits(ks[5]) != math.Float64bits(nan2) {
		t.Errorf("NaNs by bits: %x", math.Float64bits(ks[5]))
	}
	// The iterator gives every NaN entry its own value, in a fixed order.
	var got []string
	for it, _, v := MapRange(m); it.Next(); {
		v = it.Value()
		got = append(got, v)
	}
	slices.Sort(got)
	if want := []string{"-inf", "a", "b", "c", "m1", "two"}; !reflect.DeepEqual(got, want) {
		t.Errorf("MapRange values %v, want each of %v once", got, want)
	}
	f32 := sortedKeys(map[float32]int{float32(math.NaN()): 1, 1.5: 2, -3: 3})
	if f32[0] != -3 || f32[1] != 1.5 || f32[2] == f32[2] {
		t.Errorf("float32: %v", f32)
	}
}

func TestMapKeysStructsArraysBools(t *testing.T) {
	m := map[pt]int{{2, 1, "a"}: 0, {1, 2, "b"}: 0, {1, 2, "a"}: 0, {1, 1, "z"}: 0}
	want := []pt{{1, 1, "z"}, {1, 2, "a"}, {1, 2, "b"}, {2, 1, "a"}}
	if got := sortedKeys(m); !reflect.DeepEqual(got, want) {
		t.Errorf("structs %v, want %v", got, want)
	}
	a := sortedKeys(map[[2]int8]bool{{1, -1}: true, {0, 5}: true, {1, -2}: true})
	if want := [][2]int8{{0, 5}, {1, -2}, {1, -1}}; !reflect.DeepEqual(a, want) {
		t.Errorf("arrays %v, want %v", a, want)
	}
	if b := sortedKeys(map[bool]int{true: 1, false: 0}); !reflect.DeepEqual(b, []bool{false, true}) {
		t.Errorf("bools %v", b)
	}
	type nan struct {
		F float64
		N int
	}
	n := sortedKeys(map[nan]int{{math.NaN(), 2}: 1, {math.NaN(), 1}: 2, {0, 3}: 3})
	if len(n) != 3 || n[0].F != 0 || n[1].N != 1 || n[2].N != 2 {
		t.Errorf("struct NaN keys %v", n)
	}
}

func TestMapKeysInterfaces(t *testing.T) {
	m := map[any]int{nil: 0, "b": 1, "a": 2, 3: 3, 1: 4, label("a"): 5, pt{1, 2, ""}: 6, true: 7, false: 8}
	got := sortedKeys(m)
	// nil first; then by dynamic type name: bool, int, rt.label, rt.pt, string.
	want := []any{nil, false, true, 1, 3, label("a"), pt{1, 2, ""}, "a", "b"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("interfaces %v, want %v", got, want)
	}
	type boxed struct{ V any }
	b := sortedKeys(map[boxed]bool{{2.5}: true, {"x"}: true, {nil}: true, {1.5}: true})
	if want := []boxed{{nil}, {1.5}, {2.5}, {"x"}}; !reflect.DeepEqual(b, want) {
		t.Errorf("boxed %v, want %v", b, want)
	}
}

func TestMapKeysPointersAndChannels(t *testing.T) {
	xs := make([]int, 4)
	m := map[*int]int{&xs[2]: 2, &xs[0]: 0, &xs[3]: 3, &xs[1]: 1}
	for i, p := range sortedKeys(m) {
		if p != &xs[i] {
			t.Errorf("pointers by address: key %d is not &xs[%d]", i, i)
		}
	}
	c := map[chan int]bool{make(chan int): true, make(chan int): true, nil: true}
	ck := sortedKeys(c)
	if len(ck) != 3 || ck[0] != nil {
		t.Errorf("channels: %v", ck)
	}
}

// TestMapKeysStable: the same map contents give the same order, whatever
// order the map was filled in and Go iterates it in.
func TestMapKeysStable(t *testing.T) {
	var first []any
	for round := 0; round < 20; round++ {
		m := map[any]bool{}
		for i := 0; i < 30; i++ {
			j := (i*7 + round) % 30
			var k any = j
			switch j % 3 {
			case 1:
				k = strconv.Itoa(j)
			case 2:
				k = pt{j, -j, "p"}
			}
			m[k] = true
		}
		ks := sortedKeys(m)
		if first == nil {
			first = ks
		} else if !reflect.DeepEqual(ks, first) {
			t.Fatalf("round %d: %v, want %v", round, ks, first)
		}
	}
}

func TestMapRangeSkipsDeleted(t *testing.T) {
	for round := 0; round < 20; round++ {
		m := map[int]string{1: "a", 2: "b", 3: "c", 4: "d"}
		var keys []int
		after1 := false
		for it, k, v := MapRange(m); it.Next(); {
			k, v = it.Key(), it.Value()
			keys = append(keys, k)
			if k == 3 && after1 {
				t.Errorf("key 3 produced after its deletion: %v", keys)
			}
			if k == 2 && after1 && v != "B" {
				t.Errorf("value read before its turn: %q", v)
			}
			if k == 1 {
				after1 = true
				delete(m, 3)
				m[2] = "B"
				m[0] = "new" // added during the loop: not produced
			}
		}
		slices.Sort(keys)
		if !reflect.DeepEqual(keys, []int{1, 2, 4}) && !reflect.DeepEqual(keys, []int{1, 2, 3, 4}) {
			t.Errorf("keys %v, want 1, 2 and 4 (and 3 if before 1)", keys)
		}
	}
}

// Two ranges over one map may take different orders, as under go test;
// each order is a permutation of the keys, and under control the run's
// random source decides them: the same run gives the same orders.
func TestMapOrderIsShuffledByTheRun(t *testing.T) {
	m := map[int]bool{}
	for i := 0; i < 10; i++ {
		m[i] = true
	}
	orders := map[string]bool{}
	for i := 0; i < 50; i++ {
		ks := MapKeys(m)
		s := slices.Clone(ks)
		slices.Sort(s)
		if !reflect.DeepEqual(s, sortedKeys(m)) {
			t.Fatalf("order %v is not a permutation of the keys", ks)
		}
		orders[fmt.Sprint(ks)] = true
	}
	if len(orders) < 2 {
		t.Fatalf("50 ranges over 10 keys took one order: %v", orders)
	}
	run := func() (got []string) {
		runControlled(&stay{}, func() {
			for i := 0; i < 5; i++ {
				got = append(got, fmt.Sprint(MapKeys(m)))
			}
		})
		return got
	}
	if a, b := run(), run(); !reflect.DeepEqual(a, b) {
		t.Fatalf("two runs of the same seed took other orders:\n%v\n%v", a, b)
	}
}

func BenchmarkMapKeysInt(b *testing.B) {
	m := map[int]int{}
	for i := 0; i < 100; i++ {
		m[i*7919%1000] = i
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sortedKeys(m)
	}
}

func BenchmarkMapKeysStruct(b *testing.B) {
	m := map[pt]int{}
	for i := 0; i < 100; i++ {
		m[pt{i % 7, i, "k"}] = i
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sortedKeys(m)
	}
}
