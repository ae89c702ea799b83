//go:build go1.21

package strategy

import (
	"fmt"
	"math/rand"
)

// vbStrategy is systematic testing with variable and thread bounding
// (Bindal, Bansal and Lal, "Variable and thread bounding for systematic
// testing of multithreaded programs", ISSTA 2013; Algorithm 1 there). Its
// schedules are ranked by the number v of variables at which preemptions
// happen, v = 0, 1, ..., Bound (default 2):
//
//   - Variables are the objects of key points (memory, mutexes, channels),
//     named stably across runs by site of first use plus ordinal (vnNamer);
//     only variables two goroutines used in one run are considered.
//   - For each v-subset V of them, in order of discovery, the c = v
//     preemption points (the minimum: by definition v <= c) are chosen in
//     every way among the positions where the goroutine that just ran is
//     about to access a variable of V. A first run per subset, without
//     preemptions, measures how many positions there are.
//   - Thread bounding decides who runs: strict priority scheduling, the
//     priorities of the n goroutines and of the c fragments created by the
//     preemptions (a preempted goroutine continues as a new fragment with
//     its own priority) taken from a family of permutations of the n+c
//     fragments that covers every relative order of every t = 2 of them
//     (tbCover). Each (V, positions) pair is run with every permutation.
//
// v = 0 runs the permutations alone: bugs that only need an order of whole
// goroutines. The search ends when v = Bound is exhausted.
type vbStrategy struct {
	maxV, t int
	seed    int64
	prof    vnProfile

	started   bool
	v         int
	subset    []int // indices into prof.shared
	subsets   int   // subsets started, to derive permutation streams
	measuring bool
	pos       []int // preemption positions (0-based), colex
	kV        int   // most positions seen for the subset
	n         int   // most goroutines seen
	perms     [][]int
	permIdx   int

	// per run
	runs     int
	rng      *rand.Rand
	inV      map[string]bool
	namer    vnNamer
	prio     map[GID]int
	appeared int
	last     GID
	count    int // positions met
	frags    int // preemptions made
}

const vbDefaultBound = 2

func init() {
	Register("vb", func(o Options) Strategy {
		b := o.Bound
		if b <= 0 {
			b = vbDefaultBound
		}
		return &vbStrategy{maxV: b, t: 2, seed: o.Seed}
	})
}

func (s *vbStrategy) Name() string { return "vb" }

func (s *vbStrategy) Begin() bool {
	if !s.started {
		s.started = true
		s.startSubset(0, nil) // v = 0
	} else if !s.advance() {
		return false
	}
	s.inV = map[string]bool{}
	for _, i := range s.subset {
		s.inV[s.prof.shared[i]] = true
	}
	s.namer.reset()
	s.runs++
	s.rng = rngFor(s.seed, uint64(s.runs)<<1|1)
	s.prio, s.appeared, s.last, s.count, s.frags = map[GID]int{}, 0, -1, 0, 0
	return true
}

// startSubset begins the runs of one variable subset with fresh permutations.
func (s *vbStrategy) startSubset(v int, subset []int) {
	s.v, s.subset, s.pos, s.permIdx, s.kV = v, subset, nil, 0, 0
	s.measuring = true
	s.subsets++
	// The measuring run uses one order; the family is drawn after it, when
	// the number of goroutines is known.
	s.perms = [][]int{make([]int, max(s.n, 1)+v)}
	for i := range s.perms[0] {
		s.perms[0][i] = i
	}
}

// advance moves to the next schedule: next permutation, next positions,
// next subset, next v.
func (s *vbStrategy) advance() bool {
	if !s.measuring {
		s.permIdx++
		if s.permIdx < len(s.perms) {
			return true
		}
		s.permIdx = 0
		if s.v > 0 && s.pos != nil && vbNextComb(s.pos, s.kV) {
			return true
		}
	}
	if s.measuring {
		s.measuring = false
		s.perms = tbCover(max(s.n, 1)+s.v, s.t, rngFor(s.seed, uint64(s.subsets)))
		if s.v == 0 {
			return true
		}
		if s.kV >= s.v {
			s.pos = make([]int, s.v)
			for i := range s.pos {
				s.pos[i] = i
			}
			return true
		}
	}
	// Next subset of the same size, else the first of the next size.
	if s.v > 0 && vbNextComb(s.subset, len(s.prof.shared)) {
		s.startSubset(s.v, s.subset)
		return true
	}
	v := s.v + 1
	if v > s.maxV || v > len(s.prof.shared) {
		return false
	}
	sub := make([]int, v)
	for i := range sub {
		sub[i] = i
	}
	s.startSubset(v, sub)
	return true
}

func (s *vbStrategy) Next(enabled []Event) int {
	perm := s.perms[s.permIdx]
	nf := len(perm) - s.v // fragments for goroutines; the last v are for preemptions
	for _, e := range enabled {
		if _, ok := s.prio[e.G]; !ok {
			s.prio[e.G] = -1 - s.appeared // beyond the estimate: below everyone
			if s.appeared < nf {
				s.prio[e.G] = vbRank(perm, s.appeared)
			}
			s.appeared++
		}
	}
	if i := treeIndexOf(enabled, s.last); i >= 0 && s.v > 0 && s.inV[s.namer.peek(enabled[i])] {
		for _, p := range s.pos {
			if p == s.count && s.frags < s.v {
				s.prio[s.last] = vbRank(perm, nf+s.frags) // continues as a new fragment
				s.frags++
			}
		}
		s.count++
	}
	best := 0
	for i, e := range enabled {
		if s.prio[e.G] > s.prio[enabled[best].G] {
			best = i
		}
	}
	s.namer.ran(enabled[best])
	s.last = enabled[best].G
	return best
}

// vbRank is the priority of fragment f under an order (highest first).
func vbRank(order []int, f int) int {
	for i, x := range order {
		if x == f {
			return len(order) - i
		}
	}
	return 0
}

func (s *vbStrategy) Choose(at Event, n int) int {
	// Open choices are not bounded by v or t: they are drawn from the run's
	// own random stream.
	return s.rng.Intn(n)
}

func (s *vbStrategy) End(r *Run) {
	s.prof.add(r)
	if s.appeared > s.n {
		s.n = s.appeared
	}
	if s.count > s.kV {
		s.kV = s.count
	}
}

// Describe names the bounds of the current schedule.
func (s *vbStrategy) Describe() string {
	var vars []string
	for _, i := range s.subset {
		vars = append(vars, s.prof.shared[i])
	}
	return fmt.Sprintf("vb v=%d variables %v preemptions at %v priorities %v", s.v, vars, s.pos, s.perms[s.permIdx])
}

// ReadsLog: End reads the run through Len and At (LogReader).
func (s *vbStrategy) ReadsLog() {}
