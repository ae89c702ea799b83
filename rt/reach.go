//go:build go1.21

package rt

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/period-dev/period/strategy"
)

// A goroutine left blocked on a channel that a package-level variable still
// reaches is not a leak: code yet to run can still wake it (the worker of a
// circuit kept in a package-level registry, a sweeper started on first use).
// This is the definition of Go's goroutine leak profile (proposal 74609:
// goroutines blocked on concurrency primitives that nothing still running
// can reach, found by the garbage collector's marking). Period cannot mark
// the heap nor read stacks; it walks, through reflection, the values of the
// package-level variables the rewriter lists (Roots), of the packages it
// instruments. What the walk cannot see (a closure's captured variables, a
// stack) stays reported, as before.

// roots lists functions that return the addresses of package-level
// variables, one function per rewritten file.
var roots []func() []any

// Roots registers the addresses of a file's package-level variables that
// may hold a channel: the walk that tells leaks from goroutines a package
// still reaches starts there.
func Roots(vars func() []any) bool {
	roots = append(roots, vars)
	return true
}

// maxReachVisits bounds one walk (values looked at): past it, what was not
// found counts as unreachable and is reported, as without the walk.
const maxReachVisits = 1 << 21

// chansOf lists the channels g is parked on, if it is parked on channel
// operations only (a send, a receive, a select without default).
func chansOf(g *gstate) []*hchan {
	if g.status != gParked {
		return nil
	}
	switch g.p.op {
	case strategy.OpSend, strategy.OpRecv:
		if g.p.ch != nil {
			return []*hchan{g.p.ch}
		}
	case strategy.OpSelect:
		if g.p.hasDefault {
			return nil
		}
		var hs []*hchan
		for _, c := range g.p.cases {
			if c.ch != nil {
				hs = append(hs, c.ch)
			}
		}
		return hs
	}
	return nil
}

// reachableFromPackages drops from gs the goroutines parked on a channel
// that a package-level variable reaches.
func reachableFromPackages(gs []*gstate) []*gstate {
	want := map[*hchan]bool{}
	for _, g := range gs {
		for _, h := range chansOf(g) {
			want[h] = true
		}
	}
	if len(want) == 0 || len(roots) == 0 {
		return gs
	}
	found := reachableChans(want)
	if len(found) == 0 {
		return gs
	}
	var out []*gstate
	for _, g := range gs {
		reached := false
		for _, h := range chansOf(g) {
			reached = reached || found[h]
		}
		if !reached {
			out = append(out, g)
		}
	}
	return out
}

// reachableChans walks the package-level variables (Roots) and returns
// which channels of want they reach.
func reachableChans(want map[*hchan]bool) map[*hchan]bool {
	w := &reachWalk{want: want, found: map[*hchan]bool{}, seen: map[reachKey]bool{}, budget: maxReachVisits}
	for _, vars := range roots {
		for _, p := range vars() {
			w.push(reflect.ValueOf(p))
			w.run()
			if w.stop() {
				return w.found
			}
		}
	}
	return w.found
}

type reachKey struct {
	p uintptr
	t reflect.Type
}

// reachWalk is a walk with a queue of values to look at, not recursion: a
// linked list of a million nodes would need a million frames.
type reachWalk struct {
	want, found map[*hchan]bool
	seen        map[reachKey]bool
	budget      int
	queue       []reflect.Value
}

// push queues v; every value queued counts against the budget.
func (w *reachWalk) push(v reflect.Value) {
	if w.budget > 0 {
		w.budget--
		w.queue = append(w.queue, v)
	}
}

func (w *reachWalk) run() {
	for len(w.queue) > 0 && !w.done() {
		v := w.queue[len(w.queue)-1]
		w.queue = w.queue[:len(w.queue)-1]
		w.walk(v)
	}
	w.queue = w.queue[:0]
}

// stop tells the walk to end: everything wanted was found, or the budget is spent.
func (w *reachWalk) stop() bool { return w.done() || w.budget <= 0 }

func (w *reachWalk) done() bool { return len(w.found) == len(w.want) }

// visit tells whether the object at p, seen as t, is new to the walk.
func (w *reachWalk) visit(p uintptr, t reflect.Type) bool {
	k := reachKey{p, t}
	if w.seen[k] {
		return false
	}
	w.seen[k] = true
	return true
}

var syncMapType = reflect.TypeOf(sync.Map{})

func (w *reachWalk) walk(v reflect.Value) {
	if !v.IsValid() {
		return
	}
	t := v.Type()
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() && mayHoldPointers(t.Elem()) && w.visit(v.Pointer(), t) {
			w.push(v.Elem())
		}
	case reflect.Interface:
		if !v.IsNil() {
			w.push(v.Elem())
		}
	case reflect.Struct:
		if t == syncMapType && v.CanAddr() {
			(*sync.Map)(unsafe.Pointer(v.UnsafeAddr())).Range(func(k, x any) bool {
				w.push(reflect.ValueOf(k))
				w.push(reflect.ValueOf(x))
				return !w.stop()
			})
			return
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Type.Kind() == reflect.UnsafePointer {
				// atomic.Pointer[T]: its zero-length [0]*T field says
				// what the unsafe.Pointer points to.
				if et, ok := atomicPointee(t); ok {
					if p := v.Field(i).UnsafePointer(); p != nil {
						w.push(reflect.NewAt(et, p))
					}
				}
				continue
			}
			if mayHoldPointers(f.Type) {
				w.push(v.Field(i))
			}
		}
	case reflect.Array:
		if mayHoldPointers(t.Elem()) {
			for i := 0; i < v.Len() && !w.stop(); i++ {
				w.push(v.Index(i))
			}
		}
	case reflect.Slice:
		if !v.IsNil() && mayHoldPointers(t.Elem()) && w.visit(v.Pointer(), t) {
			for i := 0; i < v.Len() && !w.stop(); i++ {
				w.push(v.Index(i))
			}
		}
	case reflect.Map:
		if !v.IsNil() && (mayHoldPointers(t.Key()) || mayHoldPointers(t.Elem())) && w.visit(v.Pointer(), t) {
			it := v.MapRange()
			for it.Next() && !w.stop() {
				w.push(it.Key())
				w.push(it.Value())
			}
		}
	case reflect.Chan:
		if v.IsNil() {
			return
		}
		h := (*hchan)(v.UnsafePointer())
		if w.want[h] {
			w.found[h] = true
		}
		// Values waiting in its buffer (a channel of requests, each with
		// a reply channel) are reachable too.
		et := t.Elem()
		if !w.visit(uintptr(unsafe.Pointer(h)), t) || !mayHoldPointers(et) || h.dataqsiz == 0 || et.Size() == 0 {
			return
		}
		for i := uint(0); i < h.qcount && i < h.dataqsiz && !w.stop(); i++ {
			at := unsafe.Add(h.buf, uintptr((h.recvx+i)%h.dataqsiz)*et.Size())
			w.push(reflect.NewAt(et, at).Elem())
		}
	}
}

// atomicPointee returns T for a struct laid out as sync/atomic.Pointer[T]
// (a leading [0]*T field and an unsafe.Pointer).
func atomicPointee(t reflect.Type) (reflect.Type, bool) {
	if t.NumField() == 0 {
		return nil, false
	}
	f := t.Field(0).Type
	if f.Kind() != reflect.Array || f.Len() != 0 || f.Elem().Kind() != reflect.Pointer {
		return nil, false
	}
	return f.Elem().Elem(), true
}

var pointerful sync.Map // reflect.Type -> bool

// mayHoldPointers tells whether a value of t can lead to a channel: the
// walk skips numbers, strings and functions (reflection cannot look into a
// closure), and whatever holds only those.
func mayHoldPointers(t reflect.Type) bool {
	if v, ok := pointerful.Load(t); ok {
		return v.(bool)
	}
	pointerful.Store(t, true) // a recursive type meets itself: assume it may
	var r bool
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map, reflect.Chan, reflect.UnsafePointer:
		r = true
	case reflect.Array:
		r = t.Len() > 0 && mayHoldPointers(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField() && !r; i++ {
			r = mayHoldPointers(t.Field(i).Type)
		}
	}
	pointerful.Store(t, r)
	return r
}
