//go:build go1.21

package strategy

import (
	"encoding/json"
	"fmt"
)

// This file is the stateless search shared by the systematic strategies (dfs,
// ipb, idb, pedal, vb): the tree of all decisions is discovered run by run
// and walked depth-first by replaying a prefix of decisions (Godefroid's
// VeriSoft approach, used by CHESS).
//
// A policy says, at every new node, which alternatives exist and what each
// costs against the strategy's bound (preemptions, delays). The search has
// two modes:
//   - bounded DFS: every alternative whose total cost stays within the bound
//     is a branch of the tree;
//   - iterative: only cost-0 alternatives are branches; a costly one becomes a
//     work item (its prefix) of the level "cost so far + its cost", and the
//     levels are explored in increasing order. Each schedule of cost c is
//     found exactly once: from the prefix ending at its last costly decision.

// treeAlt is one alternative at a node: a goroutine for Next (g >= 0, v its
// index among the enabled) or an answer for Choose (g < 0, v the answer).
type treeAlt struct {
	G    GID   `json:"g"`
	V    int32 `json:"v"`
	Cost int32 `json:"c,omitempty"`
}

// treeChoice is a recorded decision (G < 0: by position V only).
type treeChoice struct {
	G GID   `json:"g"`
	V int32 `json:"v"`
}

type treeFrame struct {
	Alts []treeAlt
	Pos  int
}

type treeItem struct {
	Prefix []treeChoice
	Cost   int
}

// treePolicy defines the alternatives of a systematic strategy. Alternatives
// must be non-empty and contain at least one of cost 0.
type treePolicy interface {
	begin()                              // a run starts
	next(enabled []Event) []treeAlt      // alternatives at a new scheduling point
	choose(at Event, n int) []treeAlt    // alternatives at a new open choice
	observe(enabled []Event, chosen int) // a decision of Next was made (replayed or new)
}

type treeSearch struct {
	pol       treePolicy
	iterative bool
	bound     int

	started bool
	item    treeItem
	frames  []treeFrame
	queues  [][]treeItem // iterative: work items by level
	level   int
	step    int // decisions made in the current run
	cost    int // cost of the decisions made so far in the current run
}

func newTreeSearch(pol treePolicy, iterative bool, bound int) *treeSearch {
	return &treeSearch{pol: pol, iterative: iterative, bound: bound}
}

// begin starts the next run; false when the tree (within the bound) is done.
func (t *treeSearch) begin() bool {
	if !t.started {
		t.started = true
	} else if !t.backtrack() && !t.nextItem() {
		return false
	}
	t.step, t.cost = 0, t.item.Cost
	t.pol.begin()
	return true
}

// backtrack moves to the next unexplored branch under the current item.
func (t *treeSearch) backtrack() bool {
	for len(t.frames) > 0 {
		f := &t.frames[len(t.frames)-1]
		if f.Pos+1 < len(f.Alts) {
			f.Pos++
			return true
		}
		t.frames = t.frames[:len(t.frames)-1]
	}
	return false
}

func (t *treeSearch) nextItem() bool {
	for t.level < len(t.queues) {
		q := t.queues[t.level]
		if len(q) > 0 {
			t.item = q[0]
			t.queues[t.level] = q[1:]
			t.frames = nil
			return true
		}
		t.queues[t.level] = nil
		t.level++
	}
	return false
}

// decide returns the alternative taken at the current decision.
func (t *treeSearch) decide(fresh func() []treeAlt, resolve func(treeChoice) int32) int32 {
	defer func() { t.step++ }()
	if t.step < len(t.item.Prefix) {
		return resolve(t.item.Prefix[t.step])
	}
	j := t.step - len(t.item.Prefix)
	if j < len(t.frames) {
		a := t.frames[j].Alts[t.frames[j].Pos]
		t.cost += int(a.Cost)
		return resolve(treeChoice{G: a.G, V: a.V})
	}
	var keep []treeAlt
	for _, a := range fresh() {
		switch {
		case a.Cost == 0 || !t.iterative && t.cost+int(a.Cost) <= t.bound:
			keep = append(keep, a)
		case t.iterative && t.cost+int(a.Cost) <= t.bound:
			t.enqueue(a, t.cost+int(a.Cost))
		}
	}
	if len(keep) == 0 {
		panic(fmt.Sprintf("strategy: policy %T offered no free alternative", t.pol))
	}
	t.frames = append(t.frames, treeFrame{Alts: keep})
	t.cost += int(keep[0].Cost)
	return resolve(treeChoice{G: keep[0].G, V: keep[0].V})
}

// enqueue records the current path followed by a as a work item of level lvl.
func (t *treeSearch) enqueue(a treeAlt, lvl int) {
	p := make([]treeChoice, 0, t.step+1)
	p = append(p, t.item.Prefix...)
	for _, f := range t.frames {
		x := f.Alts[f.Pos]
		p = append(p, treeChoice{G: x.G, V: x.V})
	}
	p = append(p, treeChoice{G: a.G, V: a.V})
	for len(t.queues) <= lvl {
		t.queues = append(t.queues, nil)
	}
	t.queues[lvl] = append(t.queues[lvl], treeItem{Prefix: p, Cost: lvl})
}

func (t *treeSearch) next(enabled []Event) int {
	v := t.decide(func() []treeAlt { return t.pol.next(enabled) }, func(c treeChoice) int32 {
		if c.G >= 0 {
			for i, e := range enabled {
				if e.G == c.G {
					return int32(i)
				}
			}
		}
		if int(c.V) < len(enabled) {
			return c.V // restored from a checkpoint, or the program diverged
		}
		return 0
	})
	t.pol.observe(enabled, int(v))
	return int(v)
}

func (t *treeSearch) choose(at Event, n int) int {
	v := t.decide(func() []treeAlt { return t.pol.choose(at, n) }, func(c treeChoice) int32 {
		if int(c.V) < n {
			return c.V
		}
		return 0
	})
	return int(v)
}

// treeState is the checkpoint of a search. Goroutines are recorded by their
// position among the enabled ones: GIDs are numbered per process and do not
// survive a restart, while positions do as long as goroutines get their GIDs
// in the same relative order (they are numbered by first appearance).
type treeState struct {
	Started bool
	Item    treeItem
	Frames  []treeFrame
	Queues  [][]treeItem
	Level   int
}

func treeByPosition(cs []treeChoice) []treeChoice {
	out := make([]treeChoice, len(cs))
	for i, c := range cs {
		out[i] = treeChoice{G: -1, V: c.V}
	}
	return out
}

func (t *treeSearch) checkpoint() []byte {
	st := treeState{Started: t.started, Item: treeItem{Prefix: treeByPosition(t.item.Prefix), Cost: t.item.Cost}, Level: t.level}
	for _, f := range t.frames {
		alts := make([]treeAlt, len(f.Alts))
		for i, a := range f.Alts {
			alts[i] = treeAlt{G: -1, V: a.V, Cost: a.Cost}
		}
		st.Frames = append(st.Frames, treeFrame{Alts: alts, Pos: f.Pos})
	}
	for _, q := range t.queues {
		var nq []treeItem
		for _, it := range q {
			nq = append(nq, treeItem{Prefix: treeByPosition(it.Prefix), Cost: it.Cost})
		}
		st.Queues = append(st.Queues, nq)
	}
	b, _ := json.Marshal(st)
	return b
}

func (t *treeSearch) restore(b []byte) error {
	var st treeState
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("restore: %v", err)
	}
	t.started, t.item, t.frames, t.queues, t.level = st.Started, st.Item, st.Frames, st.Queues, st.Level
	return nil
}

// end closes a run. Nothing is truncated: after begin, every frame below the
// one it advanced is created by the run itself, so a run cut short simply
// created fewer; and a run that never started (the engine skips a schedule
// that killed an earlier process) leaves the advanced frame in place, so the
// next begin moves past the whole subtree of the skipped schedule.
func (t *treeSearch) end() {}

// treeAll offers every enabled goroutine (or every answer) at cost 0.
func treeAll(n int, enabled []Event) []treeAlt {
	alts := make([]treeAlt, n)
	for i := range alts {
		alts[i] = treeAlt{G: -1, V: int32(i)}
		if enabled != nil {
			alts[i].G = enabled[i].G
		}
	}
	return alts
}

// treeIndexOf returns the index of g among the enabled, or -1.
func treeIndexOf(enabled []Event, g GID) int {
	for i, e := range enabled {
		if e.G == g {
			return i
		}
	}
	return -1
}
