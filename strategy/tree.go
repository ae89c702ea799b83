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

// treeItem is a work item: the decisions before its costly one (tail, a
// path shared with the other items of the run that found it) and that
// decision. A run of n decisions that finds k costly alternatives costs
// O(n+k) memory and time, not O(n·k): a test of a hundred goroutines made
// 1.7 M items of 9,000 decisions each (12 GB) in its first ipb schedule.
type treeItem struct {
	tail *pathNode
	alt  treeChoice
	Cost int
}

// pathNode is a decision of a path, linked to the one before it (nil: the
// root); n is the path's length through it.
type pathNode struct {
	up *pathNode
	c  treeChoice
	n  int
}

// prefix is the item's whole path, and the node of each of its decisions.
func (it treeItem) prefix() ([]treeChoice, []*pathNode) {
	n := 1
	if it.tail != nil {
		n += it.tail.n
	}
	cs, nodes := make([]treeChoice, n), make([]*pathNode, n)
	last := &pathNode{up: it.tail, c: it.alt, n: n}
	for x, i := last, n-1; x != nil; x, i = x.up, i-1 {
		cs[i], nodes[i] = x.c, x
	}
	return cs, nodes
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
	cost0   int          // cost of the current item
	prefix  []treeChoice // the current item's path, replayed first
	frames  []treeFrame
	queues  [][]treeItem // iterative: work items by level
	level   int
	step    int // decisions made in the current run
	cost    int // cost of the decisions made so far in the current run

	// Iterative only: the path of the current run as nodes, so that the
	// items it finds share it. prefixNodes are the item's, frameNodes
	// those of the decisions after it (kept while backtracking leaves
	// them unchanged), cur the node of the last decision made.
	prefixNodes []*pathNode
	frameNodes  []*pathNode
	cur         *pathNode
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
	t.step, t.cost, t.cur = 0, t.cost0, nil
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
			it := q[0]
			q[0] = treeItem{}
			t.queues[t.level] = q[1:]
			t.prefix, t.prefixNodes = it.prefix()
			t.cost0 = it.Cost
			t.frames, t.frameNodes = nil, nil
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
	if t.step < len(t.prefix) {
		if t.iterative {
			t.cur = t.prefixNodes[t.step]
		}
		return resolve(t.prefix[t.step])
	}
	j := t.step - len(t.prefix)
	if j < len(t.frames) {
		a := t.frames[j].Alts[t.frames[j].Pos]
		t.cost += int(a.Cost)
		t.walk(j, treeChoice{G: a.G, V: a.V})
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
	t.walk(j, treeChoice{G: keep[0].G, V: keep[0].V})
	return resolve(treeChoice{G: keep[0].G, V: keep[0].V})
}

// walk makes c, the decision of frame j, the last of the current path
// (iterative search only: the paths are its items' prefixes).
func (t *treeSearch) walk(j int, c treeChoice) {
	if !t.iterative {
		return
	}
	if j < len(t.frameNodes) {
		if x := t.frameNodes[j]; x.up == t.cur && x.c == c {
			t.cur = x
			return
		}
		clear(t.frameNodes[j:])
		t.frameNodes = t.frameNodes[:j]
	}
	n := 1
	if t.cur != nil {
		n += t.cur.n
	}
	t.cur = &pathNode{up: t.cur, c: c, n: n}
	t.frameNodes = append(t.frameNodes, t.cur)
}

// enqueue records the current path followed by a as a work item of level lvl.
func (t *treeSearch) enqueue(a treeAlt, lvl int) {
	for len(t.queues) <= lvl {
		t.queues = append(t.queues, nil)
	}
	t.queues[lvl] = append(t.queues[lvl], treeItem{tail: t.cur, alt: treeChoice{G: a.G, V: a.V}, Cost: lvl})
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
// in the same relative order (they are numbered by first appearance). The
// work items' paths are a table of nodes (Up: the index of the node before,
// -1 for the root), each stored once however many items share it.
type treeState struct {
	Started bool
	Prefix  []treeChoice
	Cost    int
	Frames  []treeFrame
	Nodes   []nodeState
	Queues  [][]itemState
	Level   int
}

type nodeState struct {
	Up int   `json:"u"`
	V  int32 `json:"v"`
}

type itemState struct {
	Tail int   `json:"t"`
	V    int32 `json:"v"`
	Cost int   `json:"c"`
}

func treeByPosition(cs []treeChoice) []treeChoice {
	out := make([]treeChoice, len(cs))
	for i, c := range cs {
		out[i] = treeChoice{G: -1, V: c.V}
	}
	return out
}

func (t *treeSearch) checkpoint() []byte {
	st := treeState{Started: t.started, Prefix: treeByPosition(t.prefix), Cost: t.cost0, Level: t.level}
	for _, f := range t.frames {
		alts := make([]treeAlt, len(f.Alts))
		for i, a := range f.Alts {
			alts[i] = treeAlt{G: -1, V: a.V, Cost: a.Cost}
		}
		st.Frames = append(st.Frames, treeFrame{Alts: alts, Pos: f.Pos})
	}
	index := map[*pathNode]int{}
	number := func(x *pathNode) int {
		if x == nil {
			return -1
		}
		if i, ok := index[x]; ok {
			return i
		}
		// Iteratively up to the first numbered node: paths are long.
		var chain []*pathNode
		for y := x; y != nil; y = y.up {
			if _, ok := index[y]; ok {
				break
			}
			chain = append(chain, y)
		}
		for k := len(chain) - 1; k >= 0; k-- {
			y := chain[k]
			up := -1
			if y.up != nil {
				up = index[y.up]
			}
			index[y] = len(st.Nodes)
			st.Nodes = append(st.Nodes, nodeState{Up: up, V: y.c.V})
		}
		return index[x]
	}
	for _, q := range t.queues {
		nq := make([]itemState, 0, len(q))
		for _, it := range q {
			nq = append(nq, itemState{Tail: number(it.tail), V: it.alt.V, Cost: it.Cost})
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
	nodes := make([]*pathNode, len(st.Nodes))
	for i, x := range st.Nodes {
		if x.Up >= i {
			return fmt.Errorf("restore: node %d follows node %d", i, x.Up)
		}
		nd := &pathNode{c: treeChoice{G: -1, V: x.V}, n: 1}
		if x.Up >= 0 {
			nd.up = nodes[x.Up]
			nd.n += nd.up.n
		}
		nodes[i] = nd
	}
	queues := make([][]treeItem, len(st.Queues))
	for l, q := range st.Queues {
		for _, it := range q {
			if it.Tail >= len(nodes) {
				return fmt.Errorf("restore: item after node %d of %d", it.Tail, len(nodes))
			}
			var tail *pathNode
			if it.Tail >= 0 {
				tail = nodes[it.Tail]
			}
			queues[l] = append(queues[l], treeItem{tail: tail, alt: treeChoice{G: -1, V: it.V}, Cost: it.Cost})
		}
	}
	t.started, t.prefix, t.cost0, t.frames, t.queues, t.level = st.Started, st.Prefix, st.Cost, st.Frames, queues, st.Level
	t.prefixNodes, t.frameNodes, t.cur = nil, nil, nil
	if t.iterative {
		// The current item's nodes, for the items its next runs find.
		var up *pathNode
		for _, c := range t.prefix {
			n := 1
			if up != nil {
				n += up.n
			}
			up = &pathNode{up: up, c: c, n: n}
			t.prefixNodes = append(t.prefixNodes, up)
		}
	}
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
