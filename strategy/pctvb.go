//go:build go1.21

package strategy

// pctvbStrategy is PCT with variable bounding (PCTVB, Bindal, Bansal and
// Lal, ISSTA 2013, section 3): each run first draws v of the shared
// variables known from earlier runs (named stably, see vnNamer), then draws
// the d-1 priority change points among the accesses to those variables only
// (k_V = the sum of their most accesses in one run), instead of among all k
// steps. Priorities are PCT's. The bound becomes 1/(C(Q,v) n k_V^(d-1)),
// better than PCT's when the bug involves few, rarely accessed variables.
// Depth d = Bound (default 3); v = 2, since the paper found nearly every
// bug to involve at most two variables. The first run profiles (no change
// points).
type pctvbStrategy struct {
	pct   *pctStrategy // priorities, change points and randomness
	v     int
	prof  vnProfile
	namer vnNamer
	inV   map[string]bool
	count int // accesses to V by the goroutine about to run
}

const pctvbVars = 2

func init() {
	Register("pctvb", func(o Options) Strategy { return &pctvbStrategy{pct: newPCT(o), v: pctvbVars} })
}

func (s *pctvbStrategy) Name() string { return "pctvb" }

func (s *pctvbStrategy) Begin() bool {
	p := s.pct
	p.Begin()
	// Draw V, then re-draw the change points among its accesses.
	s.inV = map[string]bool{}
	kV := 0
	q := s.prof.shared
	for _, i := range p.rng.Perm(len(q)) {
		if len(s.inV) == s.v {
			break
		}
		s.inV[q[i]] = true
		kV += s.prof.maxAcc[q[i]]
	}
	p.change = pctChangePoints(p.rng, p.depth-1, kV)
	s.namer.reset()
	s.count = 0
	return true
}

func (s *pctvbStrategy) Next(enabled []Event) int {
	p := s.pct
	p.admit(enabled)
	i := p.highest(enabled)
	if s.inV[s.namer.peek(enabled[i])] {
		s.count++
		if pr, ok := p.change[s.count]; ok {
			p.lower(enabled[i].G, pr)
			i = p.highest(enabled)
		}
	}
	s.namer.ran(enabled[i])
	return i
}

func (s *pctvbStrategy) Choose(at Event, n int) int { return s.pct.Choose(at, n) }

func (s *pctvbStrategy) End(r *Run) {
	s.pct.End(r)
	s.prof.add(r)
}

// ReadsLog: End reads the run through Len and At (LogReader).
func (s *pctvbStrategy) ReadsLog() {}
