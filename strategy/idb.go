//go:build go1.21

package strategy

// idbStrategy is iterative delay bounding (Emmi, Qadeer and Rakamaric,
// "Delay-bounded scheduling", POPL 2011) over a deterministic round-robin
// scheduler: the goroutine that ran last continues while enabled, otherwise
// the next enabled GID after it (cyclically) runs. A delay skips the
// goroutine the scheduler would pick; taking the j-th goroutine of the
// round-robin order costs j delays, and answering j at an open choice costs
// j. Schedules are explored with 0 delays (exactly one), then exactly 1, ...,
// up to Bound (default 3).
type idbStrategy struct{ tree *treeSearch }

const idbDefaultBound = 3

type idbPolicy struct{ last GID }

func init() {
	Register("idb", func(o Options) Strategy {
		b := o.Bound
		if b <= 0 {
			b = idbDefaultBound
		}
		return &idbStrategy{tree: newTreeSearch(&idbPolicy{}, true, b)}
	})
}

func (p *idbPolicy) begin() { p.last = -1 }

// next lists the enabled in round-robin order from the last goroutine.
func (p *idbPolicy) next(enabled []Event) []treeAlt {
	start := 0 // first enabled with GID >= last (enabled is sorted by GID)
	for start < len(enabled) && enabled[start].G < p.last {
		start++
	}
	alts := make([]treeAlt, len(enabled))
	for j := range alts {
		i := (start + j) % len(enabled)
		alts[j] = treeAlt{G: enabled[i].G, V: int32(i), Cost: int32(j)}
	}
	return alts
}

func (p *idbPolicy) choose(at Event, n int) []treeAlt {
	alts := treeAll(n, nil)
	for j := range alts {
		alts[j].Cost = int32(j)
	}
	return alts
}

func (p *idbPolicy) observe(enabled []Event, chosen int) { p.last = enabled[chosen].G }

func (s *idbStrategy) Name() string               { return "idb" }
func (s *idbStrategy) Begin() bool                { return s.tree.begin() }
func (s *idbStrategy) Next(enabled []Event) int   { return s.tree.next(enabled) }
func (s *idbStrategy) Choose(at Event, n int) int { return s.tree.choose(at, n) }
func (s *idbStrategy) End(r *Run)                 { s.tree.end() }
func (s *idbStrategy) Checkpoint() []byte         { return s.tree.checkpoint() }
func (s *idbStrategy) Restore(b []byte) error     { return s.tree.restore(b) }

// ReadsLog: End reads the run through Len and At (LogReader).
func (s *idbStrategy) ReadsLog() {}
