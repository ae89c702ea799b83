//go:build go1.21

package rt

import (
	"fmt"
	"sort"
	"unsafe"

	"github.com/period-dev/period/strategy"
)

// Data races are found with vector clocks over the operations the engine
// controls (the race detector of `go test -race` cannot help: the
// scheduler's own hand-offs order every pair of goroutines). Happens-before
// follows the Go memory model: goroutine start, channel operations (the k-th
// receive from a channel of capacity C before the (k+C)-th send completes; a
// send before its receive; close before a receive that sees it), mutexes and
// RWMutexes, WaitGroup, Once, Cond, and sync/atomic as sequentially
// consistent synchronisation. Accesses are checked FastTrack-style: the last
// write is one epoch, reads are one epoch per goroutine since that write.

// vclock is a vector clock indexed by GID.
type vc []uint32

func (v vc) get(g strategy.GID) uint32 {
	if int(g) < len(v) {
		return v[g]
	}
	return 0
}

func (v *vc) join(o vc) {
	if len(o) > len(*v) {
		*v = append(*v, make(vc, len(o)-len(*v))...)
	}
	for i, x := range o {
		if x > (*v)[i] {
			(*v)[i] = x
		}
	}
}

func (v *vc) tick(g strategy.GID) {
	if int(g) >= len(*v) {
		*v = append(*v, make(vc, int(g)+1-len(*v))...)
	}
	(*v)[g]++
}

func (v vc) clone() vc { return append(vc(nil), v...) }

// epoch is one access: goroutine, its clock then, and where.
type epoch struct {
	g    strategy.GID
	c    uint32
	site string
	path string
}

type raceVar struct {
	w     epoch
	hasW  bool
	reads []epoch
}

type chanClocks struct {
	items        []vc       // clocks of the values in the buffer, oldest first
	recvs        map[int]vc // clock of the k-th receive, until the (k+C)-th send takes it
	nsend, nrecv int
	closed       vc
}

type raceState struct {
	on    bool
	objs  map[unsafe.Pointer]*vc // sync objects: mutexes, WaitGroups, Onces, atomics
	robjs map[unsafe.Pointer]*vc // RWMutex read-unlock clocks
	chans map[*hchan]*chanClocks
	vars  map[unsafe.Pointer]*raceVar
	seen  map[string]bool // reported pairs of sites
}

func (r *raceState) reset(on bool) {
	seen := r.seen
	*r = raceState{on: on, objs: map[unsafe.Pointer]*vc{}, robjs: map[unsafe.Pointer]*vc{},
		chans: map[*hchan]*chanClocks{}, vars: map[unsafe.Pointer]*raceVar{}, seen: seen}
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
}

func (r *raceState) obj(p unsafe.Pointer, m map[unsafe.Pointer]*vc) *vc {
	c := m[p]
	if c == nil {
		c = new(vc)
		m[p] = c
	}
	return c
}

// acquire: g's later events happen after the object's releases.
func (e *engine) acquire(g *gstate, p unsafe.Pointer) {
	if e.race.on {
		g.vc.join(*e.race.obj(p, e.race.objs))
	}
}

// release: the object carries g's past to later acquirers.
func (e *engine) release(g *gstate, p unsafe.Pointer) {
	if e.race.on {
		e.race.obj(p, e.race.objs).join(g.vc)
		g.vc.tick(g.id)
	}
}

// acqRel is a sequentially consistent operation (sync/atomic, sync.Map).
func (e *engine) acqRel(g *gstate, p unsafe.Pointer) {
	if e.race.on {
		o := e.race.obj(p, e.race.objs)
		g.vc.join(*o)
		o.join(g.vc)
		g.vc.tick(g.id)
	}
}

func (e *engine) rRelease(g *gstate, p unsafe.Pointer) {
	if e.race.on {
		e.race.obj(p, e.race.robjs).join(g.vc)
		g.vc.tick(g.id)
	}
}

func (e *engine) rAcquire(g *gstate, p unsafe.Pointer) {
	if e.race.on {
		g.vc.join(*e.race.obj(p, e.race.robjs))
	}
}

func (e *engine) chanClocksOf(h *hchan) *chanClocks {
	c := e.race.chans[h]
	if c == nil {
		c = &chanClocks{recvs: map[int]vc{}}
		e.race.chans[h] = c
	}
	return c
}

// chanSync records the happens-before edges of g's operation on h, which is
// about to complete. partner is the goroutine of an unbuffered rendezvous.
func (e *engine) chanSync(g *gstate, h *hchan, send bool, partner *gstate) {
	if !e.race.on || h == nil {
		return
	}
	c := e.chanClocksOf(h)
	if partner != nil {
		// Unbuffered: each side happens before the other's completion.
		mine := g.vc.clone()
		g.vc.join(partner.vc)
		partner.vc.join(mine)
		g.vc.tick(g.id)
		partner.vc.tick(partner.id)
		return
	}
	if send {
		if h.closed != 0 {
			return
		}
		c.nsend++
		if k := c.nsend - int(h.dataqsiz); k > 0 {
			if rc, ok := c.recvs[k]; ok {
				g.vc.join(rc)
				delete(c.recvs, k)
			}
		}
		if h.dataqsiz > 0 {
			c.items = append(c.items, g.vc.clone())
		}
		g.vc.tick(g.id)
		return
	}
	if h.qcount == 0 && h.closed != 0 {
		g.vc.join(c.closed)
		return
	}
	if len(c.items) > 0 {
		g.vc.join(c.items[0])
		c.items = c.items[1:]
	}
	c.nrecv++
	if h.dataqsiz > 0 {
		c.recvs[c.nrecv] = g.vc.clone()
	}
	g.vc.tick(g.id)
}

func (e *engine) chanClose(g *gstate, h *hchan) {
	if e.race.on && h != nil {
		e.chanClocksOf(h).closed = g.vc.clone()
		g.vc.tick(g.id)
	}
}

// checkAccess looks for a race between g's access at site and earlier
// accesses to the same variable that do not happen before it.
func (e *engine) checkAccess(g *gstate, p unsafe.Pointer, site string, write bool) {
	v := e.race.vars[p]
	if v == nil {
		v = &raceVar{}
		e.race.vars[p] = v
	}
	now := epoch{g: g.id, c: g.vc.get(g.id), site: site, path: g.path}
	if v.hasW && v.w.g != g.id && v.w.c > g.vc.get(v.w.g) {
		e.raceFound(v.w, true, now, write)
	}
	if write {
		for _, r := range v.reads {
			if r.g != g.id && r.c > g.vc.get(r.g) {
				e.raceFound(r, false, now, true)
				break
			}
		}
		v.w, v.hasW = now, true
		v.reads = v.reads[:0]
		return
	}
	for i := range v.reads {
		if v.reads[i].g == g.id {
			v.reads[i] = now
			return
		}
	}
	v.reads = append(v.reads, now)
}

func (e *engine) raceFound(prev epoch, prevWrite bool, cur epoch, curWrite bool) {
	sites := []string{prev.site, cur.site}
	sort.Strings(sites)
	key := sites[0] + "|" + sites[1]
	if e.race.seen[key] {
		return
	}
	e.race.seen[key] = true
	rw := func(w bool) string {
		if w {
			return "write"
		}
		return "read"
	}
	msg := fmt.Sprintf("data race: %s by goroutine g%s at %s\n  and earlier %s by goroutine g%s at %s,\n  with no happens-before order between them\n  stack of the %[1]s:\n%[7]s",
		rw(curWrite), cur.path, cur.site, rw(prevWrite), prev.path, prev.site, userStack())
	e.report(bug{kind: "race", message: msg, location: cur.site, key: "race|" + key})
}
