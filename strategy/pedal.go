//go:build go1.21

package strategy

import (
	"fmt"
	"strings"
)

// pedalStrategy is PEDAL (Profile directed Event driven Dynamic AnaLysis:
// "PEDAL: profile directed systematic testing of concurrent programs", see
// seeds/pedal-profile-directed-systematic-testing.txt). Every run is profiled:
// its key points with their object (Event.Obj) and site. Preemptions are only
// allowed at key points whose site is in a reduced preemption set (RPS).
//
//   - Run 1 profiles a schedule without preemptions.
//   - Deadlock first: if more than one goroutine acquires a lock while holding
//     another (a "dangerous location", derived from the OpLock/OpUnlock events
//     of each goroutine), search with RPS = the dangerous sites and preemption
//     bound = the number of such goroutines, trying preemptions before
//     continuations (a lock cycle needs one preemption per goroutine). This
//     phase uses at most half of Options.Budget.
//   - Then preemption bounding 0, 1, ..., Bound (default 3) restricted to the
//     normal RPS: the sites touching an object that two goroutines used in
//     one run. With Options.Focus, the RPS is object-level instead: the
//     sites of the objects touched at a site containing Focus.
//
// The profile grows with every run; so does the RPS used at new scheduling
// points.
type pedalStrategy struct {
	bound, budget int
	focus         string

	phase      int // 0 profile, 1 deadlock first, 2 preemption bounding
	tree       *treeSearch
	last       GID // phase 0: the goroutine that ran last
	phase1Runs int

	danger  map[string]bool // dangerous sites
	dlBound int
	rps     map[string]bool // normal (or object-level) RPS
	desc    string
}

func init() {
	Register("pedal", func(o Options) Strategy {
		b := o.Bound
		if b <= 0 {
			b = ipbDefaultBound
		}
		return &pedalStrategy{bound: b, budget: o.Budget, focus: o.Focus, danger: map[string]bool{}, rps: map[string]bool{}}
	})
}

func (s *pedalStrategy) Name() string { return "pedal" }

func (s *pedalStrategy) Begin() bool {
	switch s.phase {
	case 0:
		s.last = -1
		s.desc = "pedal profile run"
		return true
	case 1:
		if (s.budget <= 0 || s.phase1Runs < max(1, s.budget/2)) && s.tree.begin() {
			s.phase1Runs++
			s.desc = fmt.Sprintf("pedal deadlock-first: %d dangerous sites, preemption bound %d", len(s.danger), s.dlBound)
			return true
		}
		s.startNormal()
	}
	s.desc = fmt.Sprintf("pedal: RPS of %d sites, preemption bound %d", len(s.rps), s.bound)
	return s.tree.begin()
}

func (s *pedalStrategy) startNormal() {
	s.phase = 2
	s.tree = newTreeSearch(&ipbPolicy{rps: func(e Event) bool { return s.rps[e.Site] }}, true, s.bound)
}

func (s *pedalStrategy) Next(enabled []Event) int {
	if s.phase == 0 {
		i := treeIndexOf(enabled, s.last)
		if i < 0 {
			i = 0
		}
		s.last = enabled[i].G
		return i
	}
	return s.tree.next(enabled)
}

func (s *pedalStrategy) Choose(at Event, n int) int {
	if s.phase == 0 {
		return 0
	}
	return s.tree.choose(at, n)
}

func (s *pedalStrategy) End(r *Run) {
	dangerous := s.profile(r)
	switch s.phase {
	case 0:
		s.dlBound = dangerous
		if dangerous > 1 {
			s.phase = 1
			s.tree = newTreeSearch(&ipbPolicy{rps: func(e Event) bool { return s.danger[e.Site] }, preemptFirst: true}, false, dangerous)
		} else {
			s.startNormal()
		}
	default:
		s.tree.end()
	}
}

// profile adds the run's dangerous sites and RPS sites, and returns how many
// goroutines had a dangerous location in it.
func (s *pedalStrategy) profile(r *Run) int {
	held := map[GID]map[uintptr]bool{}
	dangerous := map[GID]bool{}
	users := map[uintptr]map[GID]bool{}
	sites := map[uintptr]map[string]bool{}
	focused := map[uintptr]bool{}
	for ix, nx := 0, r.Len(); ix < nx; ix++ {
		e := r.At(ix)
		if e.Obj != 0 {
			if users[e.Obj] == nil {
				users[e.Obj], sites[e.Obj] = map[GID]bool{}, map[string]bool{}
			}
			users[e.Obj][e.G] = true
			sites[e.Obj][e.Site] = true
			if s.focus != "" && strings.Contains(e.Site, s.focus) {
				focused[e.Obj] = true
			}
		}
		switch e.Op {
		case OpLock, OpRLock:
			h := held[e.G]
			if h == nil {
				h = map[uintptr]bool{}
				held[e.G] = h
			}
			for o := range h {
				if o != e.Obj {
					s.danger[e.Site] = true
					dangerous[e.G] = true
				}
			}
			h[e.Obj] = true
		case OpUnlock, OpRUnlock:
			delete(held[e.G], e.Obj)
		}
	}
	for o, us := range users {
		if s.focus != "" && focused[o] || s.focus == "" && len(us) > 1 {
			for site := range sites[o] {
				s.rps[site] = true
			}
		}
	}
	return len(dangerous)
}

// Describe names the phase of the current run and its RPS.
func (s *pedalStrategy) Describe() string { return s.desc }

// ReadsLog: End reads the run through Len and At (LogReader).
func (s *pedalStrategy) ReadsLog() {}
