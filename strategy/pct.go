//go:build go1.21

package strategy

import "math/rand"

// pctStrategy is probabilistic concurrency testing (Burckhardt, Kothari,
// Musuvathi and Nagarakatte, "A randomized scheduler with probabilistic
// guarantees of finding bugs", ASPLOS 2010). Goroutines get random distinct
// priorities (each new goroutine is inserted at a uniformly random rank,
// which makes the ranks a uniform permutation); the highest-priority enabled
// goroutine always runs. d-1 change points are drawn among the k steps of a
// run, k being the most steps seen in an earlier run (the first run has
// none); at the i-th drawn change point the goroutine about to run drops to
// priority i, below every initial priority. A bug of depth d is found with
// probability at least 1/(n k^(d-1)) per run. Depth d = Bound (default 3).
type pctStrategy struct {
	depth int
	seed  int64
	run   int
	rng   *rand.Rand

	k      int         // steps of the longest run seen
	change map[int]int // step (1-based) -> low priority taken at it
	ranked []GID       // goroutines not lowered, highest priority first
	low    map[GID]int // lowered goroutines and their priority (1..d-1)
	known  map[GID]bool
	step   int
	// label[g] orders ranked without positions: ranked[i] has a smaller
	// label than ranked[i+1] (0: not ranked). Next compares the labels of
	// the enabled goroutines instead of walking ranked, which holds every
	// goroutine of the run.
	label []uint64
}

// pctLabelSpace is the label range; labels are spread anew when an
// insertion finds no room between its neighbours.
const pctLabelSpace = 1 << 62

const pctDefaultDepth = 3

func init() {
	Register("pct", func(o Options) Strategy { return newPCT(o) })
}

func newPCT(o Options) *pctStrategy {
	d := o.Bound
	if d <= 0 {
		d = pctDefaultDepth
	}
	return &pctStrategy{depth: d, seed: o.Seed}
}

func (s *pctStrategy) Name() string { return "pct" }

func (s *pctStrategy) Begin() bool {
	s.rng = rngFor(s.seed, uint64(s.run))
	s.run++
	s.ranked, s.low, s.known, s.step = nil, map[GID]int{}, map[GID]bool{}, 0
	clear(s.label)
	s.change = pctChangePoints(s.rng, s.depth-1, s.k)
	return true
}

// pctChangePoints draws m distinct steps in [1, k] (fewer if k < m); the
// i-th drawn gets value i.
func pctChangePoints(rng *rand.Rand, m, k int) map[int]int {
	cp := map[int]int{}
	if m > k {
		m = k
	}
	for i := 1; i <= m; i++ {
		for {
			x := 1 + rng.Intn(k)
			if _, dup := cp[x]; !dup {
				cp[x] = i
				break
			}
		}
	}
	return cp
}

// admit gives goroutines seen for the first time a uniformly random rank.
func (s *pctStrategy) admit(enabled []Event) {
	for _, e := range enabled {
		if !s.known[e.G] {
			s.known[e.G] = true
			i := s.rng.Intn(len(s.ranked) + 1)
			s.ranked = append(s.ranked, 0)
			copy(s.ranked[i+1:], s.ranked[i:])
			s.ranked[i] = e.G
			s.setLabel(i)
		}
	}
}

func (s *pctStrategy) labelOf(g GID) uint64 {
	if int(g) < len(s.label) {
		return s.label[g]
	}
	return 0
}

// setLabel labels ranked[i], just inserted, between its neighbours.
func (s *pctStrategy) setLabel(i int) {
	g := s.ranked[i]
	for int(g) >= len(s.label) {
		s.label = append(s.label, 0)
	}
	lo, hi := uint64(0), uint64(pctLabelSpace)
	if i > 0 {
		lo = s.label[s.ranked[i-1]]
	}
	if i+1 < len(s.ranked) {
		hi = s.label[s.ranked[i+1]]
	}
	if hi-lo >= 2 {
		s.label[g] = lo + (hi-lo)/2
		return
	}
	step := uint64(pctLabelSpace) / uint64(len(s.ranked)+1)
	for k, h := range s.ranked {
		s.label[h] = uint64(k+1) * step
	}
}

// highest returns the index of the enabled goroutine with the highest priority.
func (s *pctStrategy) highest(enabled []Event) int {
	best, bestL := -1, uint64(0)
	for i, e := range enabled {
		if l := s.labelOf(e.G); l > 0 && (best < 0 || l < bestL) {
			best, bestL = i, l
		}
	}
	if best >= 0 {
		return best // the first of ranked that is enabled
	}
	for i, e := range enabled {
		if best < 0 || s.low[e.G] > s.low[enabled[best].G] {
			best = i
		}
	}
	return best
}

// lower drops g to low priority p.
func (s *pctStrategy) lower(g GID, p int) {
	for i, h := range s.ranked {
		if h == g {
			s.ranked = append(s.ranked[:i], s.ranked[i+1:]...)
			break
		}
	}
	if int(g) < len(s.label) {
		s.label[g] = 0
	}
	s.low[g] = p
}

func (s *pctStrategy) Next(enabled []Event) int {
	s.admit(enabled)
	s.step++
	i := s.highest(enabled)
	if p, ok := s.change[s.step]; ok {
		s.lower(enabled[i].G, p)
		i = s.highest(enabled)
	}
	return i
}

func (s *pctStrategy) Choose(at Event, n int) int { return s.rng.Intn(n) }

func (s *pctStrategy) End(r *Run) {
	if r.Len() > s.k {
		s.k = r.Len()
	}
}

// ReadsLog: End reads the run through Len and At (LogReader).
func (s *pctStrategy) ReadsLog() {}
