package loopy

import (
	"sort"
	"strconv"
	"strings"
	"testing"
)

func TestMapRangeSharedVars(t *testing.T) {
	fs := MapClosures(map[int]int{1: 10, 2: 20, 3: 30})
	if len(fs) != 3 {
		t.Fatalf("%d closures", len(fs))
	}
	last := fs[0]()
	for _, f := range fs {
		if got := f(); got != last || got%110 != 0 || got < 110 || got > 330 {
			t.Errorf("got %d, want the last entry's k*100+v for every closure (go 1.13 shares k and v)", got)
		}
	}
}

func TestMapRangeOrder(t *testing.T) {
	m := map[string]int{}
	var want []string
	for i := 0; i < 50; i++ {
		m[strconv.Itoa(i)] = i
		want = append(want, strconv.Itoa(i))
	}
	got := MapOrder(m)
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("range produced %v, want every key once", got)
	}
}
