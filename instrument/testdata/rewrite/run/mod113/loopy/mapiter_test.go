package loopy

import (
	"strconv"
	"testing"
)

func TestMapRangeSharedVars(t *testing.T) {
	fs := MapClosures(map[int]int{1: 10, 2: 20, 3: 30})
	if len(fs) != 3 {
		t.Fatalf("%d closures", len(fs))
	}
	for _, f := range fs {
		if got := f(); got != 330 {
			t.Errorf("got %d, want 330 (go 1.13 shares k and v; keys in order, 3 last)", got)
		}
	}
}

func TestMapRangeOrder(t *testing.T) {
	m := map[string]int{}
	for i := 0; i < 50; i++ {
		m[strconv.Itoa(i)] = i
	}
	first := MapOrder(m)
	for i := 1; i < len(first); i++ {
		if first[i-1] >= first[i] {
			t.Fatalf("not in string order: %v", first)
		}
	}
}
