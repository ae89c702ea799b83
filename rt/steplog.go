//go:build go1.21

package rt

import (
	"unsafe"

	"github.com/period-dev/period/strategy"
)

// stepLog is the record of a run's steps (issue 11, bounded memory): per
// step the goroutine, the object and an index naming the operation and the
// site, 16 bytes without pointers, in chunks of fixed size (no copy when it
// grows, nothing for the garbage collector to scan). It replaces a slice of
// strategy.Event (40 bytes with a string per step, copied at every
// doubling). Replay files, reports and the strategies' End read it back
// event by event; the chunks are kept for the next run.
type stepLog struct {
	chunks [][]stepRec
	n      int
	sites  siteTab
}

type stepRec struct {
	obj uintptr
	g   strategy.GID
	k   uint32 // index in sites.list
}

const stepChunk = 1 << 14

func (l *stepLog) reset() {
	l.n = 0
	if len(l.sites.list) > 1<<16 {
		// Sites are the instrumented program's static sites; a table
		// this large was built from sites made at run time: start over.
		l.sites = siteTab{}
	}
}

func (l *stepLog) add(ev strategy.Event) {
	c := l.n / stepChunk
	if c == len(l.chunks) {
		l.chunks = append(l.chunks, make([]stepRec, stepChunk))
	}
	l.chunks[c][l.n%stepChunk] = stepRec{obj: ev.Obj, g: ev.G, k: l.sites.id(ev.Op, ev.Site)}
	l.n++
}

// Len and At make the log a strategy.EventLog.
func (l *stepLog) Len() int { return l.n }

func (l *stepLog) At(i int) strategy.Event {
	r := &l.chunks[i/stepChunk][i%stepChunk]
	s := &l.sites.list[r.k]
	return strategy.Event{G: r.g, Op: s.op, Obj: r.obj, Site: s.site}
}

// events is the log as a slice, for strategies that read Run.Events.
func (l *stepLog) events() []strategy.Event {
	evs := make([]strategy.Event, l.n)
	for i := range evs {
		evs[i] = l.At(i)
	}
	return evs
}

// siteTab interns (operation, site) pairs. Sites are constant strings of
// the instrumented source, so a small cache keyed by the string's address
// answers most look-ups without hashing the string.
type siteTab struct {
	ids   map[opSite]uint32
	list  []opSite
	cache [1024]siteCached
}

type opSite struct {
	op   strategy.Op
	site string
}

type siteCached struct {
	p  *byte
	n  int
	op strategy.Op
	id uint32
}

func (t *siteTab) id(op strategy.Op, site string) uint32 {
	p := unsafe.StringData(site)
	h := (uintptr(unsafe.Pointer(p))>>3 ^ uintptr(len(site)) ^ uintptr(op)*0x9e37) % uintptr(len(t.cache))
	c := &t.cache[h]
	if c.p == p && c.n == len(site) && c.op == op && p != nil {
		return c.id
	}
	if t.ids == nil {
		t.ids = map[opSite]uint32{}
	}
	k := opSite{op, site}
	id, ok := t.ids[k]
	if !ok {
		id = uint32(len(t.list))
		t.list = append(t.list, k)
		t.ids[k] = id
	}
	*c = siteCached{p: p, n: len(site), op: op, id: id}
	return id
}
