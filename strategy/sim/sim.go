//go:build go1.21

// Package sim is a tiny model of concurrent programs for testing strategies
// without goroutines. A Program is a set of threads, each a straight-line list
// of instructions; Explore drives a strategy over it exactly as the engine in
// package rt does (Begin, Next at every key point of the enabled threads,
// Choose at open choices, End with the run), and reports what was found.
//
// The model mirrors the engine on the points strategies depend on: a thread
// starts parked at an OpStart key point; executing a key point runs the thread
// on through its local instructions up to its next key point; GIDs are given
// in order of first appearance and kept across runs; object identities (Obj)
// change from run to run, as addresses do in real programs.
package sim

import (
	"fmt"
	"sort"
	"strings"

	"github.com/period-dev/period/strategy"
)

// Locals are a thread's local variables, read by checks and write values.
type Locals map[string]int

// Instr is one instruction of a thread. Build instructions with Read, Write,
// Lock, Unlock, Pick, Yield (key points) and Spawn, Check (local steps).
type Instr struct {
	op    strategy.Op // a key point's op; opLocal for local steps
	obj   string      // variable or mutex name
	local string      // Read and Pick: local receiving the value
	n     int         // Pick: number of alternatives; Spawn: thread index
	val   func(Locals) int
	check func(Locals) bool
	msg   string
	site  string
}

const opLocal strategy.Op = 255

// At sets the instruction's source site (default "t<thread>.<pc>").
func (in Instr) At(site string) Instr { in.site = site; return in }

// Read copies shared variable v into local l.
func Read(v, l string) Instr { return Instr{op: strategy.OpRead, obj: v, local: l} }

// Write stores c into shared variable v.
func Write(v string, c int) Instr {
	return Instr{op: strategy.OpWrite, obj: v, val: func(Locals) int { return c }}
}

// WriteF stores f(locals) into shared variable v.
func WriteF(v string, f func(Locals) int) Instr { return Instr{op: strategy.OpWrite, obj: v, val: f} }

// Lock acquires mutex m; the thread is disabled while another holds it.
func Lock(m string) Instr { return Instr{op: strategy.OpLock, obj: m} }

// Unlock releases mutex m; unlocking a free mutex is a bug.
func Unlock(m string) Instr { return Instr{op: strategy.OpUnlock, obj: m} }

// Pick asks the strategy to Choose one of n alternatives (like a select with
// n ready cases) and stores the answer in local l.
func Pick(l string, n int) Instr { return Instr{op: strategy.OpSelect, local: l, n: n} }

// Yield is a key point without effect (runtime.Gosched).
func Yield() Instr { return Instr{op: strategy.OpYield} }

// Spawn starts thread t (an index into Program.Threads). It is a local step,
// as go statements are in the engine; the child is parked at OpStart.
func Spawn(t int) Instr { return Instr{op: opLocal, n: t} }

// Check fails the run with msg when ok(locals) is false. It is a local step.
func Check(msg string, ok func(Locals) bool) Instr {
	return Instr{op: opLocal, n: -1, check: ok, msg: msg}
}

// Program is a simulated test: thread 0 runs first, the others when spawned.
type Program struct {
	Name    string
	Threads [][]Instr
	// Final, if set, checks the shared variables after all threads ended and
	// returns a failure message or "".
	Final func(vars map[string]int) string
}

// Result is what an exploration found.
type Result struct {
	Schedules int    // runs executed
	FirstBug  int    // 1-based index of the first buggy run, 0 if none
	Bugs      int    // buggy runs
	Message   string // failure of the first buggy run
	Exhausted bool   // the strategy's Begin returned false before the budget ran out
	// Interleavings holds every distinct interleaving; Order lists the
	// interleaving of each run in run order. An interleaving is the run's
	// steps as "path:site" (plus "=k" after a choice), space separated; paths
	// rather than GIDs, so that it does not depend on the order of runs.
	Interleavings map[string]bool
	Order         []string
	Steps         int // total key points executed
}

// Explore runs up to budget schedules of p chosen by s.
func Explore(p Program, s strategy.Strategy, budget int) Result {
	x := &explorer{p: p, s: s, gids: map[string]strategy.GID{}}
	res := Result{Interleavings: map[string]bool{}}
	for res.Schedules < budget {
		if !s.Begin() {
			res.Exhausted = true
			break
		}
		run, il, msg := x.run(res.Schedules)
		res.Schedules++
		res.Steps += len(run.Events)
		res.Interleavings[il] = true
		res.Order = append(res.Order, il)
		if run.Buggy {
			res.Bugs++
			if res.FirstBug == 0 {
				res.FirstBug = res.Schedules
				res.Message = msg
			}
		}
		s.End(run)
	}
	return res
}

type explorer struct {
	p     Program
	s     strategy.Strategy
	gids  map[string]strategy.GID // creation path -> GID, kept across runs like the engine's
	paths []string
}

type thread struct {
	gid      strategy.GID
	prog     int // index into Program.Threads
	path     string
	site     string // site of the start key point
	pc       int    // next instruction
	started  bool
	children int
	locals   Locals
}

func (x *explorer) gidOf(path string) strategy.GID {
	g, ok := x.gids[path]
	if !ok {
		g = strategy.GID(len(x.paths))
		x.gids[path] = g
		x.paths = append(x.paths, path)
	}
	return g
}

// state is one run in progress; clone copies it for brute-force enumeration.
type state struct {
	x      *explorer
	idx    int
	vars   map[string]int
	held   map[string]bool
	objs   map[string]uintptr
	ths    []*thread
	events []strategy.Event
	il     []string
	fail   string
	done   bool
}

func (x *explorer) newState(idx int) *state {
	st := &state{x: x, idx: idx, vars: map[string]int{}, held: map[string]bool{}, objs: map[string]uintptr{}}
	st.spawn(0, "0", "test")
	return st
}

func (st *state) clone() *state {
	c := *st
	c.vars = map[string]int{}
	for k, v := range st.vars {
		c.vars[k] = v
	}
	c.held = map[string]bool{}
	for k, v := range st.held {
		c.held[k] = v
	}
	c.ths = nil
	for _, t := range st.ths {
		t2 := *t
		t2.locals = Locals{}
		for k, v := range t.locals {
			t2.locals[k] = v
		}
		c.ths = append(c.ths, &t2)
	}
	c.events = append([]strategy.Event(nil), st.events...)
	c.il = append([]string(nil), st.il...)
	return &c
}

func (st *state) spawn(prog int, path, site string) {
	st.ths = append(st.ths, &thread{gid: st.x.gidOf(path), prog: prog, path: path, site: site, locals: Locals{}})
}

func (st *state) objOf(name string) uintptr {
	o, ok := st.objs[name]
	if !ok {
		// Addresses differ between runs, as in real programs. Objects are
		// numbered by name so that cloned states agree.
		o = uintptr(st.idx+1)<<20 | uintptr(len(st.objs)+1)<<4
		st.objs[name] = o
	}
	return o
}

func (st *state) siteOf(t *thread, pc int) string {
	if s := st.x.p.Threads[t.prog][pc].site; s != "" {
		return s
	}
	return fmt.Sprintf("t%d.%d", t.prog, pc)
}

func (st *state) pending(t *thread) strategy.Event {
	if !t.started {
		return strategy.Event{G: t.gid, Op: strategy.OpStart, Site: t.site}
	}
	in := st.x.p.Threads[t.prog][t.pc]
	e := strategy.Event{G: t.gid, Op: in.op, Site: st.siteOf(t, t.pc)}
	if in.obj != "" {
		e.Obj = st.objOf(in.obj)
	}
	return e
}

// enabled returns the enabled threads (by GID) and their pending events. When
// none is enabled the run is over: normally, or in a deadlock.
func (st *state) enabled() ([]*thread, []strategy.Event) {
	var en []*thread
	live := false
	for _, t := range st.ths {
		code := st.x.p.Threads[t.prog]
		if t.started && t.pc >= len(code) {
			continue
		}
		live = true
		if t.started && code[t.pc].op == strategy.OpLock && st.held[code[t.pc].obj] {
			continue
		}
		en = append(en, t)
	}
	if len(en) == 0 {
		st.done = true
		if live && st.fail == "" {
			st.fail = "deadlock: all threads are blocked"
		}
		if st.fail == "" && st.x.p.Final != nil {
			st.fail = st.x.p.Final(st.vars)
		}
		return nil, nil
	}
	sort.Slice(en, func(i, j int) bool { return en[i].gid < en[j].gid })
	evs := make([]strategy.Event, len(en))
	for i, t := range en {
		evs[i] = st.pending(t)
	}
	return en, evs
}

// choices is the number of alternatives t's pending key point leaves open (0 if none).
func (st *state) choices(t *thread) int {
	if !t.started {
		return 0
	}
	in := st.x.p.Threads[t.prog][t.pc]
	if in.op == strategy.OpSelect && in.n >= 2 {
		return in.n
	}
	return 0
}

// step executes t's pending key point (c is the choice at a Pick) and its
// local steps up to the next key point. A failure ends the run.
func (st *state) step(t *thread, e strategy.Event, c int) {
	st.events = append(st.events, e)
	il := t.path + ":" + e.Site
	if !t.started {
		t.started = true
	} else {
		in := st.x.p.Threads[t.prog][t.pc]
		switch in.op {
		case strategy.OpRead:
			t.locals[in.local] = st.vars[in.obj]
		case strategy.OpWrite:
			st.vars[in.obj] = in.val(t.locals)
		case strategy.OpLock:
			st.held[in.obj] = true
		case strategy.OpUnlock:
			if !st.held[in.obj] {
				st.fail = fmt.Sprintf("%s: unlock of unlocked mutex %s", e.Site, in.obj)
			}
			st.held[in.obj] = false
		case strategy.OpSelect:
			t.locals[in.local] = c
			if in.n >= 2 {
				il += fmt.Sprintf("=%d", c)
			}
		}
		t.pc++
	}
	st.il = append(st.il, il)
	code := st.x.p.Threads[t.prog]
	for st.fail == "" && t.pc < len(code) && code[t.pc].op == opLocal {
		in := code[t.pc]
		if in.check != nil {
			if !in.check(t.locals) {
				st.fail = fmt.Sprintf("%s: check failed: %s", st.siteOf(t, t.pc), in.msg)
			}
		} else {
			t.children++
			st.spawn(in.n, fmt.Sprintf("%s.%d", t.path, t.children), st.siteOf(t, t.pc))
		}
		t.pc++
	}
	if st.fail != "" {
		st.done = true
	}
}

func (st *state) interleaving() string { return strings.Join(st.il, " ") }

// run executes one schedule chosen by the strategy.
func (x *explorer) run(idx int) (*strategy.Run, string, string) {
	st := x.newState(idx)
	for !st.done {
		en, evs := st.enabled()
		if en == nil {
			break
		}
		k := x.s.Next(evs)
		if k < 0 || k >= len(en) {
			panic(fmt.Sprintf("sim: strategy %s picked %d of %d", x.s.Name(), k, len(en)))
		}
		c := 0
		if n := st.choices(en[k]); n > 0 {
			if c = x.s.Choose(evs[k], n); c < 0 || c >= n {
				panic(fmt.Sprintf("sim: strategy %s chose %d of %d", x.s.Name(), c, n))
			}
		}
		st.step(en[k], evs[k], c)
	}
	run := &strategy.Run{Index: idx, Events: st.events, Buggy: st.fail != "", Paths: append([]string(nil), x.paths...)}
	return run, st.interleaving(), st.fail
}

// Step is one scheduling point of an enumerated schedule.
type Step struct {
	Enabled []strategy.Event // pending events of the enabled threads, by GID
	Chosen  int              // index into Enabled
	N       int              // alternatives of the chosen key point's choice, 0 if none
	Choice  int              // the alternative taken when N > 0
}

// Schedule is one complete schedule found by Enumerate.
type Schedule struct {
	Interleaving string // as in Result.Interleavings
	Steps        []Step
	Buggy        bool
}

// Enumerate lists every schedule of p (every choice at every scheduling
// point) by brute force over copied states, independently of any strategy.
// Use it on small programs to cross-check systematic strategies.
func Enumerate(p Program) []Schedule {
	x := &explorer{p: p, gids: map[string]strategy.GID{}}
	var out []Schedule
	var rec func(st *state, steps []Step)
	rec = func(st *state, steps []Step) {
		en, evs := st.enabled()
		if en == nil {
			out = append(out, Schedule{Interleaving: st.interleaving(), Steps: steps, Buggy: st.fail != ""})
			return
		}
		for k := range en {
			n := st.choices(en[k])
			for c := 0; c == 0 || c < n; c++ {
				st2 := st.clone()
				steps2 := append(append([]Step(nil), steps...), Step{Enabled: evs, Chosen: k, N: n, Choice: c})
				st2.step(st2.ths[indexOf(st.ths, en[k])], evs[k], c)
				if st2.done && st2.fail != "" {
					out = append(out, Schedule{Interleaving: st2.interleaving(), Steps: steps2, Buggy: true})
					continue
				}
				rec(st2, steps2)
			}
		}
	}
	rec(x.newState(0), nil)
	return out
}

func indexOf(ths []*thread, t *thread) int {
	for i, u := range ths {
		if u == t {
			return i
		}
	}
	return -1
}
