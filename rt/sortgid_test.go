//go:build go1.21

package rt

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/period-dev/period/strategy"
)

// TestSortByGID: any number of ascending runs comes out sorted, with the
// same goroutines.
func TestSortByGID(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var tmp []*gstate
	for trial := 0; trial < 2000; trial++ {
		n := r.Intn(60)
		var gs []*gstate
		for _, id := range r.Perm(200)[:n] {
			gs = append(gs, &gstate{id: strategy.GID(id)})
		}
		// Cut into runs of random lengths, each sorted.
		for i := 0; i < n; {
			j := min(n, i+1+r.Intn(1+n/(1+r.Intn(12))))
			slices.SortFunc(gs[i:j], func(a, b *gstate) int { return int(a.id - b.id) })
			i = j
		}
		want := slices.Clone(gs)
		slices.SortFunc(want, func(a, b *gstate) int { return int(a.id - b.id) })
		tmp = sortByGID(gs, tmp)
		if !slices.Equal(gs, want) {
			t.Fatalf("trial %d: got %v, want %v", trial, gids(gs), gids(want))
		}
	}
}
