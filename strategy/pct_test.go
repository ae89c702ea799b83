//go:build go1.21

package strategy_test

import (
	"math"
	"strings"
	"testing"

	"github.com/period-dev/period/strategy"
	"github.com/period-dev/period/strategy/sim"
)

// hitRate runs name at depth d on p for runs runs under each of seeds seeds
// and returns the fraction of buggy runs and the PCT bound 1/(n k^(d-1)),
// with n the threads of p and k its longest run.
func hitRate(t *testing.T, name string, p sim.Program, d, seeds, runs int) (rate, bound float64) {
	bugs, total, k := 0, 0, 0
	for seed := 1; seed <= seeds; seed++ {
		r := sim.Explore(p, mustNew(t, name, strategy.Options{Seed: int64(seed), Bound: d}), runs)
		for _, il := range r.Order {
			k = max(k, len(strings.Fields(il)))
		}
		bugs += r.Bugs
		total += r.Schedules
	}
	n := len(p.Threads)
	return float64(bugs) / float64(total), 1 / (float64(n) * math.Pow(float64(k), float64(d-1)))
}

// TestPCTGuarantee checks the ASPLOS 2010 bound on a depth-1 bug (an order
// violation: the child must read x before main writes it) and on depth-2
// bugs (reorder: the checker reads between the setter's two writes, or
// around them), for PCT and PPCT, over 20 fixed seeds.
func TestPCTGuarantee(t *testing.T) {
	// The order violation with a bystander thread: n = 3, so the depth-1
	// bound 1/3 is below the true probability 1/2 with room for sampling.
	order := sim.OrderViolation(3)
	order.Threads[0] = append([]sim.Instr{sim.Spawn(2)}, order.Threads[0]...)
	order.Threads = append(order.Threads, []sim.Instr{sim.Yield(), sim.Yield()})
	cases := []struct {
		p sim.Program
		d int
	}{
		{order, 1},
		{sim.OrderViolation(3), 2},
		{sim.Reorder(2), 2},
		{sim.Reorder(3), 2},
		{sim.Reorder(4), 3},
	}
	for _, name := range []string{"pct", "ppct"} {
		for _, c := range cases {
			rate, bound := hitRate(t, name, c.p, c.d, 20, 100)
			t.Logf("%s d=%d on %s: hit rate %.4f, bound %.4f", name, c.d, c.p.Name, rate, bound)
			if rate < bound {
				t.Errorf("%s d=%d on %s: hit rate %.4f below the bound %.4f", name, c.d, c.p.Name, rate, bound)
			}
		}
	}
}

// TestPCTDepthMatters: with depth 1 (no change points) PCT cannot find the
// reorder bug, which needs a priority change; with depth 2 it does.
func TestPCTDepthMatters(t *testing.T) {
	r := sim.Explore(sim.Reorder(2), mustNew(t, "pct", strategy.Options{Seed: 1, Bound: 1}), 200)
	if r.Bugs != 0 {
		t.Errorf("depth 1 found the depth-2 bug %d times: %s", r.Bugs, r.Message)
	}
	if r := sim.Explore(sim.Reorder(2), mustNew(t, "pct", strategy.Options{Seed: 1, Bound: 2}), 200); r.Bugs == 0 {
		t.Error("depth 2 never found the depth-2 bug")
	}
}
