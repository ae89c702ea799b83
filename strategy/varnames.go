//go:build go1.21

package strategy

import "strconv"

// vnNamer names the objects of a run so that the names mean the same thing
// in every run, which Event.Obj (an address) does not: an object is named by
// the site of its first executed key point in the run plus its ordinal among
// the objects first met at that site ("cache.go:12#0"). This is the paper's
// "allocation site + number of times the statement ran", observed at first
// use because allocations are not key points.
type vnNamer struct {
	names   map[uintptr]string
	perSite map[string]int
}

func (n *vnNamer) reset() {
	n.names, n.perSite = map[uintptr]string{}, map[string]int{}
}

// peek returns the name e's object has or would get if e ran now ("" for none).
func (n *vnNamer) peek(e Event) string {
	if e.Obj == 0 {
		return ""
	}
	if s, ok := n.names[e.Obj]; ok {
		return s
	}
	return e.Site + "#" + strconv.Itoa(n.perSite[e.Site])
}

// ran records that e executed and returns its object's name.
func (n *vnNamer) ran(e Event) string {
	s := n.peek(e)
	if s != "" {
		if _, ok := n.names[e.Obj]; !ok {
			n.names[e.Obj] = s
			n.perSite[e.Site]++
		}
	}
	return s
}

// vnProfile accumulates, over runs, the variables shared by two goroutines
// (in order of discovery) and the most accesses each had in one run.
type vnProfile struct {
	shared   []string
	isShared map[string]bool
	maxAcc   map[string]int
}

func (p *vnProfile) add(r *Run) {
	if p.isShared == nil {
		p.isShared, p.maxAcc = map[string]bool{}, map[string]int{}
	}
	var nm vnNamer
	nm.reset()
	users := map[string]map[GID]bool{}
	acc := map[string]int{}
	var order []string
	for ix, nx := 0, r.Len(); ix < nx; ix++ {
		e := r.At(ix)
		s := nm.ran(e)
		if s == "" {
			continue
		}
		if users[s] == nil {
			users[s] = map[GID]bool{}
			order = append(order, s)
		}
		users[s][e.G] = true
		acc[s]++
	}
	for _, s := range order {
		if acc[s] > p.maxAcc[s] {
			p.maxAcc[s] = acc[s]
		}
		if len(users[s]) > 1 && !p.isShared[s] {
			p.isShared[s] = true
			p.shared = append(p.shared, s)
		}
	}
}
