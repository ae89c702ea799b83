//go:build go1.21

package strategy

import "math/rand"

// ppctStrategy is PPCT (Nagarakatte, Burckhardt, Martin and Musuvathi,
// "Multicore acceleration of priority-based schedulers for concurrency bug
// detection", PLDI 2012). Only a low-priority set L of at most d goroutines
// is ordered by priority; every other goroutine is in the high set H and
// runs "in parallel". One goroutine, drawn uniformly among the first n
// created (n estimated from earlier runs), starts in L with priority d; at
// the i-th of d-1 change points (drawn among k steps as in PCT) the goroutine
// about to run moves to L with priority d-i. A goroutine of L runs only when
// no goroutine of H is enabled, the highest of L first.
//
// The engine is serial, so "parallel" has to be emulated: H goroutines run
// in an order the algorithm leaves free; we draw it uniformly from the seed
// at every step, which stands for whatever interleaving the hardware would
// have produced. The guarantee (a depth-d bug with probability at least
// 1/(n k^(d-1))) does not depend on that order.
type ppctStrategy struct {
	depth int
	seed  int64
	run   int
	rng   *rand.Rand

	k, n    int // longest run and most goroutines seen
	change  map[int]int
	first   int         // creation rank of the goroutine starting in L
	low     map[GID]int // L and priorities
	created int
	step    int
	known   map[GID]bool
	pick0   int // the last pick, which a change point lowers
}

func init() {
	Register("ppct", func(o Options) Strategy {
		d := o.Bound
		if d <= 0 {
			d = pctDefaultDepth
		}
		return &ppctStrategy{depth: d, seed: o.Seed}
	})
}

func (s *ppctStrategy) Name() string { return "ppct" }

func (s *ppctStrategy) Begin() bool {
	s.rng = rngFor(s.seed, uint64(s.run))
	s.run++
	s.low, s.known, s.created, s.step = map[GID]int{}, map[GID]bool{}, 0, 0
	s.first = -1
	if s.n > 0 {
		s.first = s.rng.Intn(s.n)
	}
	s.change = pctChangePoints(s.rng, s.depth-1, s.k)
	return true
}

func (s *ppctStrategy) Next(enabled []Event) int {
	for _, e := range enabled {
		if !s.known[e.G] {
			s.known[e.G] = true
			if s.created == s.first {
				s.low[e.G] = s.depth
			}
			s.created++
		}
	}
	s.step++
	i := s.pick(enabled)
	if i := s.change[s.step]; i > 0 {
		// Move the goroutine about to run to L.
		s.low[enabled[s.pick0].G] = s.depth - i
		return s.pick(enabled)
	}
	return i
}

// pick runs a random enabled goroutine of H, else the highest of L.
func (s *ppctStrategy) pick(enabled []Event) int {
	var high []int
	best := -1
	for i, e := range enabled {
		if p, ok := s.low[e.G]; !ok {
			high = append(high, i)
		} else if best < 0 || p > s.low[enabled[best].G] {
			best = i
		}
	}
	if len(high) > 0 {
		best = high[s.rng.Intn(len(high))]
	}
	s.pick0 = best
	return best
}

func (s *ppctStrategy) Choose(at Event, n int) int { return s.rng.Intn(n) }

func (s *ppctStrategy) End(r *Run) {
	if r.Len() > s.k {
		s.k = r.Len()
	}
	if len(s.known) > s.n {
		s.n = len(s.known)
	}
}

// ReadsLog: End reads the run through Len and At (LogReader).
func (s *ppctStrategy) ReadsLog() {}
