//go:build go1.21

package rt

// gTable maps runtime goroutine ids to the goroutines of the run. Every hook
// looks its caller up here, so a direct-mapped cache sits in front of the
// map: goids are handed out nearly in sequence, and the goroutines of one
// run rarely share a slot.
type gTable struct {
	m     map[int64]*gstate
	cache [gTableSlots]gSlot
}

type gSlot struct {
	id int64
	g  *gstate
}

const gTableSlots = 4096 // a power of two

func newGTable() *gTable { return &gTable{m: map[int64]*gstate{}} }

func (t *gTable) get(id int64) *gstate {
	s := &t.cache[id&(gTableSlots-1)]
	if s.id == id && s.g != nil {
		return s.g
	}
	return t.m[id] // a slot taken by a later goroutine: get writes nothing, as a map read
}

func (t *gTable) put(id int64, g *gstate) {
	t.m[id] = g
	t.cache[id&(gTableSlots-1)] = gSlot{id, g}
}

func (t *gTable) del(id int64) {
	delete(t.m, id)
	if s := &t.cache[id&(gTableSlots-1)]; s.id == id {
		*s = gSlot{}
	}
}

// each calls f for every entry, in no particular order.
func (t *gTable) each(f func(id int64, g *gstate)) {
	for id, g := range t.m {
		f(id, g)
	}
}

func (t *gTable) reset() {
	clear(t.m)
	t.cache = [gTableSlots]gSlot{}
}
