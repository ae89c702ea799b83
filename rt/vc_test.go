//go:build go1.22

package rt

import (
	"math/rand/v2"
	"testing"

	"github.com/period-dev/period/strategy"
)

// The shared, copy-on-write clocks behave as plain dense vectors under any
// sequence of clones, joins and ticks: writing one never changes another.
func TestVectorClocksAgreeWithDenseVectors(t *testing.T) {
	const n, gids, ops = 12, 40, 20000
	r := rand.New(rand.NewPCG(1, 2))
	clocks := make([]vc, n)
	model := make([][]uint32, n)
	for i := range model {
		model[i] = make([]uint32, gids)
	}
	for op := 0; op < ops; op++ {
		a, b := r.IntN(n), r.IntN(n)
		switch r.IntN(4) {
		case 0:
			g := strategy.GID(r.IntN(gids))
			clocks[a].tick(g)
			model[a][g]++
		case 1:
			clocks[a].join(clocks[b])
			for g := range model[a] {
				model[a][g] = max(model[a][g], model[b][g])
			}
		case 2:
			clocks[a] = clocks[b].clone()
			model[a] = append([]uint32(nil), model[b]...)
		case 3:
			if r.IntN(10) == 0 {
				clocks[a], model[a] = vc{}, make([]uint32, gids)
			}
		}
		for i := range clocks {
			for g := range gids {
				if got, want := clocks[i].get(strategy.GID(g)), model[i][g]; got != want {
					t.Fatalf("op %d: clock %d entry %d = %d, want %d", op, i, g, got, want)
				}
			}
		}
	}
}

// A parent whose clock has many entries starts many goroutines that each
// tick their own entry: the clones share the parent's entries, so the
// memory is linear in the goroutines, not quadratic.
func TestClonesShareTheirParentsClock(t *testing.T) {
	const kids = 10000
	var parent vc
	for g := range strategy.GID(kids) {
		parent.tick(g) // as after waiting for kids goroutines
	}
	children := make([]vc, kids)
	total := 0
	for i := range children {
		children[i] = parent.clone()
		parent.tick(0)
		children[i].tick(strategy.GID(kids + i))
		children[i].tick(strategy.GID(kids + i))
	}
	for _, c := range children {
		total += c.entries()
	}
	if total > 4*kids {
		t.Errorf("%d clones hold %d entries of their own, want at most %d", kids, total, 4*kids)
	}
	if got := children[kids-1].get(strategy.GID(kids - 1)); got != 1 {
		t.Errorf("a clone lost its parent's entry: %d, want 1", got)
	}
	if got := parent.get(0); got != kids+1 {
		t.Errorf("the parent's own entry is %d, want %d", got, kids+1)
	}
}
