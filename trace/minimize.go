//go:build go1.21

package trace

import "sort"

// Minimisation shrinks a failing schedule while keeping its bug. A candidate
// is a sequence of steps read as goroutine priorities, not as a strict record
// (see Guide), so a candidate never diverges: it runs to some end, and the
// steps it really took are the next record to shrink. Candidates are derived
// from the current best record and accepted when they show the same bug at a
// lower Cost.

// Cost orders records: fewest context switches first, then fewest steps,
// then fewest goroutines taking a step.
type Cost struct{ Switches, Steps, Goroutines int }

// Less tells whether c is strictly cheaper than d.
func (c Cost) Less(d Cost) bool {
	if c.Switches != d.Switches {
		return c.Switches < d.Switches
	}
	if c.Steps != d.Steps {
		return c.Steps < d.Steps
	}
	return c.Goroutines < d.Goroutines
}

// CostOf measures a record.
func CostOf(es []Entry) Cost {
	var c Cost
	seen := map[string]bool{}
	prev := ""
	for _, e := range es {
		if e.Choice {
			continue
		}
		if c.Steps > 0 && e.G != prev {
			c.Switches++
		}
		c.Steps++
		prev = e.G
		seen[e.G] = true
	}
	c.Goroutines = len(seen)
	return c
}

// unit is a step with the open choices its key point made (a choice entry
// follows the step that made it), so that they move together.
type unit struct {
	step    Entry
	choices []Entry
}

func units(es []Entry) (pre []Entry, us []unit) {
	for _, e := range es {
		switch {
		case !e.Choice:
			us = append(us, unit{step: e})
		case len(us) == 0:
			pre = append(pre, e)
		default:
			us[len(us)-1].choices = append(us[len(us)-1].choices, e)
		}
	}
	return pre, us
}

func flatten(pre []Entry, us []unit) []Entry {
	out := append([]Entry(nil), pre...)
	for _, u := range us {
		out = append(out, u.step)
		out = append(out, u.choices...)
	}
	return out
}

// Guide follows a candidate: at each scheduling point it runs, among the
// enabled goroutines, the one whose next unconsumed step comes first in the
// candidate. When no enabled goroutine has steps left in it, it keeps running
// the goroutine that ran last (no needless switch), else the first enabled
// goroutine by creation path. Everything it decides depends only on the
// candidate and what the program offers, so a run is deterministic.
type Guide struct {
	queue   map[string][]int // per goroutine: indices of its remaining units
	us      []unit
	used    []bool
	first   int     // no unit before it is left
	pending []Entry // choices of the step under way (first: those before any step)
	last    string
}

// NewGuide makes a guide that follows the candidate es.
func NewGuide(es []Entry) *Guide {
	pre, us := units(es)
	g := &Guide{queue: map[string][]int{}, us: us, used: make([]bool, len(us)), pending: pre}
	for i, u := range us {
		g.queue[u.step.G] = append(g.queue[u.step.G], i)
	}
	return g
}

// Next picks one of the enabled goroutines (G and Op set; Site is not
// needed) and returns its index.
func (g *Guide) Next(enabled []Entry) int {
	for g.first < len(g.us) && g.used[g.first] {
		g.first++
	}
	pick, at := -1, 0
	if g.first < len(g.us) {
		// Usually the candidate's next step is enabled: no need to look up
		// every enabled goroutine's queue (hundreds of them, at every step).
		want := g.us[g.first].step.G
		for i, en := range enabled {
			if en.G == want {
				pick, at = i, g.first
				break
			}
		}
	}
	if pick < 0 {
		for i, en := range enabled {
			if q := g.queue[en.G]; len(q) > 0 && (pick < 0 || q[0] < at) {
				pick, at = i, q[0]
			}
		}
	}
	if pick >= 0 {
		g.used[at] = true
		q := g.queue[enabled[pick].G]
		g.queue[enabled[pick].G] = q[1:]
		g.pending = append(g.pending[:0:0], g.us[at].choices...)
	} else {
		g.pending = nil
		for i, en := range enabled {
			if en.G == g.last && en.Op != "yield" {
				pick = i
				break
			}
		}
		if pick < 0 {
			for i, en := range enabled {
				if pick < 0 || en.Op != "yield" && enabled[pick].Op == "yield" ||
					(en.Op == "yield") == (enabled[pick].Op == "yield") && PathLess(en.G, enabled[pick].G) {
					pick = i
				}
			}
		}
	}
	g.last = enabled[pick].G
	return pick
}

// Choose picks one of n alternatives: the candidate's choice for the step
// under way when it has one for n alternatives, else the first.
func (g *Guide) Choose(n int) int {
	if len(g.pending) > 0 {
		c := g.pending[0]
		g.pending = g.pending[1:]
		if c.N == n && c.K < n {
			return c.K
		}
	}
	return 0
}

// block is a maximal run of consecutive steps of one goroutine.
type block struct {
	g          string
	start, end int // units[start:end]
}

func blocks(us []unit) []block {
	var bs []block
	for i, u := range us {
		if len(bs) > 0 && bs[len(bs)-1].g == u.step.G {
			bs[len(bs)-1].end = i + 1
			continue
		}
		bs = append(bs, block{u.step.G, i, i + 1})
	}
	return bs
}

// pull moves each selected block forward to join the previous block of its
// goroutine (after any block already moved there): the switches around it
// go away if the program allows the goroutine to run that early.
func pull(us []unit, bs []block, sel map[int]bool) []unit {
	var groups [][]unit
	last := map[string]int{}
	for k, b := range bs {
		if j, ok := last[b.g]; ok && sel[k] {
			groups[j] = append(groups[j], us[b.start:b.end]...)
			continue
		}
		last[b.g] = len(groups)
		groups = append(groups, append([]unit(nil), us[b.start:b.end]...))
	}
	var out []unit
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// push moves each selected block back to join the next block of its
// goroutine: the goroutine waits instead of being preempted.
func push(us []unit, bs []block, sel map[int]bool) []unit {
	rev := make([]block, len(bs))
	rsel := map[int]bool{}
	for k, b := range bs {
		rev[len(bs)-1-k] = b
		if sel[k] {
			rsel[len(bs)-1-k] = true
		}
	}
	// Joining the next block is joining the previous one in reverse order;
	// the steps inside each block keep their order.
	var groups [][]unit
	last := map[string]int{}
	for k, b := range rev {
		if j, ok := last[b.g]; ok && rsel[k] {
			groups[j] = append(append([]unit(nil), us[b.start:b.end]...), groups[j]...)
			continue
		}
		last[b.g] = len(groups)
		groups = append(groups, append([]unit(nil), us[b.start:b.end]...))
	}
	var out []unit
	for i := len(groups) - 1; i >= 0; i-- {
		out = append(out, groups[i]...)
	}
	return out
}

// family is one kind of shrinking move: the moves it offers on a record and
// the candidate that applies a subset of them.
type family struct {
	moves func(us []unit) []int
	apply func(us []unit, sel map[int]bool) []unit
}

var families = []family{
	{ // merge a block into the previous block of its goroutine
		moves: func(us []unit) []int {
			var ks []int
			seen := map[string]bool{}
			for k, b := range blocks(us) {
				if seen[b.g] {
					ks = append(ks, k)
				}
				seen[b.g] = true
			}
			return ks
		},
		apply: func(us []unit, sel map[int]bool) []unit { return pull(us, blocks(us), sel) },
	},
	{ // merge a block into the next block of its goroutine
		moves: func(us []unit) []int {
			bs := blocks(us)
			var ks []int
			seen := map[string]bool{}
			for k := len(bs) - 1; k >= 0; k-- {
				if seen[bs[k].g] {
					ks = append(ks, k)
				}
				seen[bs[k].g] = true
			}
			sort.Ints(ks)
			return ks
		},
		apply: func(us []unit, sel map[int]bool) []unit { return push(us, blocks(us), sel) },
	},
	{ // drop the tail from a block on: the guide's default order (no needless switch) runs it
		moves: func(us []unit) []int {
			bs := blocks(us)
			var ks []int
			for k := len(bs) - 1; k >= 1; k-- {
				ks = append(ks, k)
			}
			return ks
		},
		apply: func(us []unit, sel map[int]bool) []unit {
			bs := blocks(us)
			cut := len(us)
			for k := range sel {
				cut = min(cut, bs[k].start)
			}
			return us[:cut]
		},
	},
	{ // drop every step of a goroutine: it runs only when nothing listed can
		moves: func(us []unit) []int {
			var ks []int
			seen := map[string]bool{}
			for i, u := range us {
				if !seen[u.step.G] {
					seen[u.step.G] = true
					ks = append(ks, i)
				}
			}
			return ks
		},
		apply: func(us []unit, sel map[int]bool) []unit {
			drop := map[string]bool{}
			for i := range sel {
				drop[us[i].step.G] = true
			}
			var out []unit
			for _, u := range us {
				if !drop[u.step.G] {
					out = append(out, u)
				}
			}
			return out
		},
	},
}

// Minimize shrinks the record orig. try runs a candidate and returns the
// record of the steps it took if the run showed the same bug, or nil. At most
// budget candidates are tried (orig itself first: a record the guide cannot
// reproduce is returned as it is). The result depends only on orig and on
// what try returns, so a deterministic program minimises to the same record
// every time.
func Minimize(orig []Entry, budget int, try func([]Entry) []Entry) (best []Entry, tries int) {
	best = orig
	if budget < 1 {
		return best, 0
	}
	tries++
	got := try(orig)
	if got == nil {
		return best, tries
	}
	if CostOf(got).Less(CostOf(best)) {
		best = got
	}
	improve := func(cand []Entry) bool {
		if tries >= budget {
			return false
		}
		tries++
		got := try(cand)
		if got != nil && CostOf(got).Less(CostOf(best)) {
			best = got
			return true
		}
		return false
	}
	for progress := true; progress && tries < budget; {
		progress = false
		pre, us := units(best)
		moves := make([][]int, len(families))
		most := 0
		for i, f := range families {
			moves[i] = f.moves(us)
			most = max(most, len(moves[i]))
		}
		// Delta debugging over each family's moves: all at once, then
		// halves, quarters... down to single moves, the coarse moves of
		// every family before the finer ones; the first success restarts
		// from the new record.
	levels:
		for n := 1; n/2 < most; n *= 2 {
			for i, f := range families {
				ms := moves[i]
				if len(ms) == 0 || n/2 >= len(ms) {
					continue // single moves were tried at the previous level
				}
				size := (len(ms) + n - 1) / n
				for lo := 0; lo < len(ms); lo += size {
					if tries >= budget {
						break levels
					}
					sel := map[int]bool{}
					for _, k := range ms[lo:min(lo+size, len(ms))] {
						sel[k] = true
					}
					if improve(flatten(pre, f.apply(us, sel))) {
						progress = true
						break levels
					}
				}
			}
		}
	}
	return best, tries
}
