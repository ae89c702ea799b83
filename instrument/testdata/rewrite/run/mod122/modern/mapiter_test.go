package modern

import (
	"cmp"
	"math"
	"reflect"
	"slices"
	"testing"
)

func TestMapRangePerIterationVars(t *testing.T) {
	fs := MapClosures(map[int]int{1: 10, 2: 20, 3: 30})
	var got []int
	for _, f := range fs {
		got = append(got, f())
	}
	slices.Sort(got)
	if want := []int{110, 220, 330}; !slices.Equal(got, want) {
		t.Errorf("closures give %v, want one per entry %v", got, want)
	}
}

func TestMapRangeSemantics(t *testing.T) {
	if got := DeleteAhead(map[int]int{1: 1, 2: 2, 3: 3, 4: 4}); got != 1 {
		t.Errorf("DeleteAhead saw %d keys, want 1", got)
	}
	if got := ReadAtTurn(map[int]int{1: 1, 2: 2, 3: 3}); got < 1 || got > 3 {
		t.Errorf("ReadAtTurn = %d, want the first key's value alone (the others zeroed)", got)
	}
	if sum, nans := NaNs(); sum != 111 || nans != 2 {
		t.Errorf("NaNs = %d, %d; want 111, 2", sum, nans)
	}
	if got := ClearDuring(map[float64]int{math.NaN(): 1, math.NaN(): 2, 1: 3}); got != 1 {
		t.Errorf("ClearDuring saw %d keys, want 1", got)
	}
	keys, sum := Generic(map[string]float64{"b": 1, "a": 2, "c": 3})
	slices.Sort(keys)
	if !reflect.DeepEqual(keys, []string{"a", "b", "c"}) || sum != 6 {
		t.Errorf("Generic = %v, %v", keys, sum)
	}
	ks := Structs(map[key]bool{{"b", 1}: true, {"a", 2}: true, {"a", 1}: true})
	slices.SortFunc(ks, func(x, y key) int { return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B)) })
	if want := []key{{"a", 1}, {"a", 2}, {"b", 1}}; !reflect.DeepEqual(ks, want) {
		t.Errorf("Structs = %v, want %v", ks, want)
	}
	order, n := EvalOnce()
	slices.Sort(order)
	if n != 1 || !reflect.DeepEqual(order, []int{2, 4, 6}) {
		t.Errorf("EvalOnce = %v, %d calls", order, n)
	}
}
