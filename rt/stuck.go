//go:build go1.21

package rt

import (
	"fmt"
	"sort"
	"strings"

	"github.com/period-dev/period/strategy"
)

// When every goroutine is blocked, the first one listed is often a
// bystander (a test goroutine in wg.Wait); the cause is a cycle of waits: a
// goroutine waiting for a lock that another blocked goroutine holds, or on a
// channel that another blocked goroutine serves (it did the matching
// operation on that channel earlier in the run and would do it again). This
// file finds such waits so that a deadlock is located at one and its report
// starts with them.

// waitEdge: from waits at its site for something to, a blocked goroutine,
// holds or serves.
type waitEdge struct {
	from, to *gstate
	what     string // "the lock goroutine g0.2 holds (locked at x.go:20)"
}

// waitsFor lists the edges out of g towards goroutines in blocked.
// The order is that of stuck, so that a replay prints the same report.
func (e *engine) waitsFor(g *gstate, stuck []*gstate, blocked map[*gstate]bool) []waitEdge {
	var out []waitEdge
	add := func(h lockHold, how string) {
		if h.g != nil && h.g != g && blocked[h.g] {
			out = append(out, waitEdge{g, h.g, fmt.Sprintf("the lock goroutine g%s holds (%s at %s)", h.g.path, how, h.site)})
		}
	}
	switch g.p.op {
	case strategy.OpLock, strategy.OpRLock:
		mm := e.models.mutex.at(g.p.obj)
		if mm == nil {
			return nil
		}
		if mm.held {
			add(mm.holder, "locked")
		}
		if a := mm.announce; a != nil && a != g {
			add(lockHold{a, a.p.site}, "write-locking")
		}
		if g.p.op == strategy.OpLock && (mm.announce == g || !mm.held && mm.announce == nil) {
			for _, h := range mm.rholders {
				add(h, "read-locked")
			}
		}
	case strategy.OpSend, strategy.OpRecv:
		// Who served this channel before: a receiver for a sender, a sender
		// for a receiver.
		want := strategy.OpSend
		if g.p.op == strategy.OpSend {
			want = strategy.OpRecv
		}
		byID := map[strategy.GID]*gstate{}
		for _, h := range stuck {
			if h != g {
				byID[h.id] = h
			}
		}
		served := map[*gstate]string{}
		// A goroutine woken as the partner of a rendezvous has no event of
		// its own for it: its last event is its partner's, of g's kind.
		for _, h := range stuck {
			if i := h.lastEv; h != g && i >= 0 && i < e.log.Len() {
				if ev := e.log.At(i); ev.G != h.id && ev.Obj == g.p.obj && ev.Op == g.p.op {
					delete(byID, h.id)
					served[h] = fmt.Sprintf("%s as the partner of %s", want, ev.Site)
				}
			}
		}
		for i := e.log.Len() - 1; i >= 0 && len(byID) > 0; i-- {
			ev := e.log.At(i)
			if ev.Obj != g.p.obj || ev.Op != want {
				continue
			}
			if h := byID[ev.G]; h != nil {
				delete(byID, ev.G) // its latest operation on the channel only
				served[h] = fmt.Sprintf("%s at %s", ev.Op, ev.Site)
			}
		}
		for _, h := range stuck {
			if how, ok := served[h]; ok {
				out = append(out, waitEdge{g, h, fmt.Sprintf("the channel goroutine g%s served (%s)", h.path, how)})
			}
		}
	}
	return out
}

// waitCycle finds a cycle of waits among the stuck goroutines, starting
// with a goroutine other than the test's own when it can; without a cycle,
// the waits for a lock or channel that another stuck goroutine holds or
// serves (a chain whose end waits on something else).
func (e *engine) waitCycle(stuck []*gstate) (cycle bool, edges []waitEdge) {
	blocked := make(map[*gstate]bool, len(stuck))
	for _, g := range stuck {
		blocked[g] = true
	}
	out := map[*gstate][]waitEdge{}
	var all []waitEdge
	for _, g := range stuck {
		out[g] = e.waitsFor(g, stuck, blocked)
		all = append(all, out[g]...)
	}
	// Depth-first search; the path is the chain of edges from the start.
	state := map[*gstate]int{} // 0 unvisited, 1 on the path, 2 done
	var path []waitEdge
	var found []waitEdge
	var visit func(g *gstate) bool
	visit = func(g *gstate) bool {
		state[g] = 1
		for _, ed := range out[g] {
			path = append(path, ed)
			switch state[ed.to] {
			case 1:
				// The cycle is the part of the path from ed.to on.
				for i, p := range path {
					if p.from == ed.to {
						found = append([]waitEdge(nil), path[i:]...)
						return true
					}
				}
			case 0:
				if visit(ed.to) {
					return true
				}
			}
			path = path[:len(path)-1]
		}
		state[g] = 2
		return false
	}
	for _, g := range stuck {
		if state[g] == 0 && visit(g) {
			break
		}
	}
	if found == nil {
		return false, all
	}
	// Start at a goroutine other than the test's own, if the cycle has one.
	for i, ed := range found {
		if ed.from.path != "0" {
			found = append(found[i:], found[:i]...)
			break
		}
	}
	return true, found
}

// heldLocks lists, per goroutine, where it took the locks it holds.
func (e *engine) heldLocks() map[*gstate][]string {
	held := map[*gstate][]string{}
	for _, en := range e.models.mutex {
		mm := en.v
		if mm.held && mm.holder.g != nil {
			held[mm.holder.g] = append(held[mm.holder.g], "the lock locked at "+mm.holder.site)
		}
		for _, h := range mm.rholders {
			held[h.g] = append(held[h.g], "the lock read-locked at "+h.site)
		}
	}
	for _, h := range held {
		sort.Strings(h) // the mutexes are a map
	}
	return held
}

// describeWaits writes the cycle (or chain) of waits for a report, and
// orders stuck so that the goroutines in it come first.
func describeWaits(cycle bool, edges []waitEdge, stuck []*gstate) (string, []*gstate) {
	if len(edges) == 0 {
		return "", stuck
	}
	var b strings.Builder
	if cycle {
		b.WriteString("  cycle of waits:\n")
	} else {
		b.WriteString("  waiting for a lock or channel that another blocked goroutine holds or serves:\n")
	}
	first := map[*gstate]bool{}
	waiting := map[*gstate]bool{}
	for _, ed := range edges {
		waiting[ed.from] = true
	}
	var order []*gstate
	for _, ed := range edges {
		fmt.Fprintf(&b, "    goroutine g%s blocked on %s at %s waits for %s", ed.from.path, ed.from.p.op, ed.from.p.site, ed.what)
		if !waiting[ed.to] {
			// The end of the chain: what that goroutine waits for instead.
			fmt.Fprintf(&b, ", itself blocked on %s at %s", ed.to.p.op, ed.to.p.site)
		}
		b.WriteString("\n")
		for _, g := range []*gstate{ed.from, ed.to} {
			if !first[g] {
				first[g] = true
				order = append(order, g)
			}
		}
	}
	for _, g := range stuck {
		if !first[g] {
			order = append(order, g)
		}
	}
	return b.String(), order
}
