//go:build go1.21

package strategy

// ipbStrategy is iterative preemption bounding (Musuvathi and Qadeer,
// "Iterative context bounding for systematic testing of multithreaded
// programs", PLDI 2007; the CHESS search): every schedule with 0 preemptions,
// then every schedule with exactly 1, ..., up to Bound (default 3). A
// preemption is a switch away from the goroutine that just ran while it is
// still enabled; switching when it blocks or exits is free, so each level is
// itself a depth-first search over the free choices. Open choices are free.
type ipbStrategy struct{ tree *treeSearch }

// ipbDefaultBound is the default preemption bound: CHESS found most bugs
// within two preemptions; the search stops after the bound is exhausted.
const ipbDefaultBound = 3

func init() {
	Register("ipb", func(o Options) Strategy {
		b := o.Bound
		if b <= 0 {
			b = ipbDefaultBound
		}
		return &ipbStrategy{tree: newTreeSearch(&ipbPolicy{}, true, b)}
	})
}

// ipbPolicy offers a preemption (cost 1) of the goroutine that ran last when
// it is still enabled and, if rps is set, its pending key point is in rps
// (PEDAL's reduced preemption set). preemptFirst explores preemptions before
// letting the goroutine continue.
type ipbPolicy struct {
	rps          func(Event) bool
	preemptFirst bool
	last         GID
}

func (p *ipbPolicy) begin() { p.last = -1 }

func (p *ipbPolicy) next(enabled []Event) []treeAlt {
	i := treeIndexOf(enabled, p.last)
	if i < 0 {
		return treeAll(len(enabled), enabled) // blocked or exited: a free switch
	}
	stay := treeAlt{G: p.last, V: int32(i)}
	if p.rps != nil && !p.rps(enabled[i]) {
		return []treeAlt{stay}
	}
	var alts []treeAlt
	if !p.preemptFirst {
		alts = append(alts, stay)
	}
	for j, e := range enabled {
		if j != i {
			alts = append(alts, treeAlt{G: e.G, V: int32(j), Cost: 1})
		}
	}
	if p.preemptFirst {
		alts = append(alts, stay)
	}
	return alts
}

func (p *ipbPolicy) choose(at Event, n int) []treeAlt { return treeAll(n, nil) }

func (p *ipbPolicy) observe(enabled []Event, chosen int) { p.last = enabled[chosen].G }

func (s *ipbStrategy) Name() string               { return "ipb" }
func (s *ipbStrategy) Begin() bool                { return s.tree.begin() }
func (s *ipbStrategy) Next(enabled []Event) int   { return s.tree.next(enabled) }
func (s *ipbStrategy) Choose(at Event, n int) int { return s.tree.choose(at, n) }
func (s *ipbStrategy) End(r *Run)                 { s.tree.end() }
func (s *ipbStrategy) Checkpoint() []byte         { return s.tree.checkpoint() }
func (s *ipbStrategy) Restore(b []byte) error     { return s.tree.restore(b) }

// ReadsLog: End reads the run through Len and At (LogReader).
func (s *ipbStrategy) ReadsLog() {}
