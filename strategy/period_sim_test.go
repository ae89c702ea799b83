//go:build go1.21

package strategy_test

import (
	"fmt"

	"github.com/period-dev/period/strategy"
)

// A tiny simulator with branches, for programs whose slice depends on the
// interleaving (package sim runs straight-line threads only). Every step is
// a key point; its effect may jump, fail the run, or spawn threads.

type pgsStep struct {
	op   strategy.Op
	site string
	lock string // OpLock: disabled while this mutex is held (unless blocks says otherwise)
	// do runs the key point and returns the next pc (-1 for pc+1, a pc past
	// the end to exit).
	do func(m *pgsRun, t *pgsThread) int
}

type pgsThread struct {
	gid  strategy.GID
	code []pgsStep
	pc   int
	loc  map[string]int
}

type pgsRun struct {
	prog   *pgsProg
	shared map[string]int
	held   map[string]bool
	ths    []*pgsThread
	events []strategy.Event
	fail   string
}

// pgsProg is a program: thread 0 exists at the start, its start step may
// spawn the others (spawn), or all exist at the start.
type pgsProg struct {
	threads [][]pgsStep
	spawn   bool
	// blocks reports whether a lock step is disabled (default: mutex held).
	blocks func(m *pgsRun, t *pgsThread) bool
}

// pgsResult is what an exploration found.
type pgsResult struct {
	runs  int
	first map[string]int    // bug kind -> 1-based run that first found it
	sched map[string]string // bug kind -> Describe() of that run
}

func (p *pgsProg) explore(s strategy.Strategy, budget int) pgsResult {
	res := pgsResult{first: map[string]int{}, sched: map[string]string{}}
	paths := []string{}
	for i := 0; i < len(p.threads); i++ {
		paths = append(paths, fmt.Sprintf("0.%d", i))
	}
	paths[0] = "0"
	for res.runs < budget && s.Begin() {
		m := &pgsRun{prog: p, shared: map[string]int{}, held: map[string]bool{}}
		if p.spawn {
			m.ths = []*pgsThread{{gid: 0, code: p.threads[0], loc: map[string]int{}}}
		} else {
			for i, c := range p.threads {
				m.ths = append(m.ths, &pgsThread{gid: strategy.GID(i), code: c, loc: map[string]int{}})
			}
		}
		m.shared["lock"] = 1
		for m.fail == "" {
			var en []*pgsThread
			var evs []strategy.Event
			for _, t := range m.ths {
				if t.pc >= len(t.code) {
					continue
				}
				st := t.code[t.pc]
				if st.op == strategy.OpLock {
					blocked := m.held[st.lock]
					if p.blocks != nil {
						blocked = p.blocks(m, t)
					}
					if blocked {
						continue
					}
				}
				en = append(en, t)
				evs = append(evs, strategy.Event{G: t.gid, Op: st.op, Site: st.site})
			}
			if len(en) == 0 {
				break
			}
			k := s.Next(evs)
			t := en[k]
			m.events = append(m.events, evs[k])
			next := t.code[t.pc].do(m, t)
			if next < 0 {
				next = t.pc + 1
			}
			t.pc = next
		}
		res.runs++
		d := ""
		run := &strategy.Run{Index: res.runs - 1, Events: m.events, Paths: paths, Buggy: m.fail != ""}
		s.End(run)
		if ds, ok := s.(strategy.Describer); ok {
			d = ds.Describe()
		}
		if m.fail != "" && res.first[m.fail] == 0 {
			res.first[m.fail] = res.runs
			res.sched[m.fail] = d
		}
	}
	return res
}

// pgsOnce renders the paper's Figure 1 (simplified from CVE-2016-1972):
//
//	void once() {
//	    if (done) return;
//	    waiters++;
//	    pthread_mutex_lock(lock);
//	    if (!done) done = 1;
//	    pthread_mutex_unlock(lock);
//	    if (!--waiters) { free(lock); lock = NULL; }
//	}
//
// "lock" is 1 while allocated, 2 once freed, 0 when NULL. Using it when NULL
// is a nil dereference (NPD), when freed a use after free (UAF); freeing it
// twice is a double free (DF). With spawn, a main thread t0 starts the two
// workers, as a Go test does; without, the workers are t0 and t1 as in the
// paper.
func pgsOnce(spawn bool) *pgsProg {
	use := func(m *pgsRun) bool {
		switch m.shared["lock"] {
		case 0:
			m.fail = "NPD"
		case 2:
			m.fail = "UAF"
		}
		return m.fail == ""
	}
	worker := []pgsStep{
		{op: strategy.OpStart, site: "once"},
		{op: strategy.OpRead, site: "if done", do: func(m *pgsRun, t *pgsThread) int {
			if m.shared["done"] != 0 {
				return 100
			}
			return -1
		}},
		{op: strategy.OpWrite, site: "waiters++", do: func(m *pgsRun, t *pgsThread) int { m.shared["waiters"]++; return -1 }},
		{op: strategy.OpLock, site: "lock(lock)", lock: "m", do: func(m *pgsRun, t *pgsThread) int {
			if use(m) {
				m.held["m"] = true
			}
			return -1
		}},
		{op: strategy.OpRead, site: "if !done", do: func(m *pgsRun, t *pgsThread) int {
			if m.shared["done"] != 0 {
				return 6
			}
			return -1
		}},
		{op: strategy.OpWrite, site: "done = 1", do: func(m *pgsRun, t *pgsThread) int { m.shared["done"] = 1; return -1 }},
		{op: strategy.OpUnlock, site: "unlock(lock)", do: func(m *pgsRun, t *pgsThread) int {
			if use(m) {
				m.held["m"] = false
			}
			return -1
		}},
		{op: strategy.OpWrite, site: "if !--waiters", do: func(m *pgsRun, t *pgsThread) int {
			m.shared["waiters"]--
			if m.shared["waiters"] != 0 {
				return 100
			}
			return -1
		}},
		{op: strategy.OpWrite, site: "free(lock)", do: func(m *pgsRun, t *pgsThread) int {
			switch m.shared["lock"] {
			case 2:
				m.fail = "DF"
			case 1:
				m.shared["lock"] = 2
			} // free(NULL) does nothing
			return -1
		}},
		{op: strategy.OpWrite, site: "lock = NULL", do: func(m *pgsRun, t *pgsThread) int { m.shared["lock"] = 0; return -1 }},
	}
	worker[0].do = func(m *pgsRun, t *pgsThread) int { return -1 }
	p := &pgsProg{spawn: spawn, threads: [][]pgsStep{worker, worker}}
	// A NULL or freed lock does not block: using it is the bug.
	p.blocks = func(m *pgsRun, t *pgsThread) bool { return m.shared["lock"] == 1 && m.held["m"] }
	if spawn {
		main := []pgsStep{{op: strategy.OpStart, site: "test", do: func(m *pgsRun, t *pgsThread) int {
			for i := 1; i <= 2; i++ {
				m.ths = append(m.ths, &pgsThread{gid: strategy.GID(i), code: m.prog.threads[i], loc: map[string]int{}})
			}
			return -1
		}}}
		p.threads = [][]pgsStep{main, worker, worker}
	}
	return p
}
