//go:build go1.21

package rt

import (
	"reflect"
)

// Channel operations through package reflect (reflect.Select and the Send,
// Recv, TrySend, TryRecv and Close methods of a reflect.Value) are key
// points like the statements they stand for: the model decides, then the
// real operation, ready by construction, is performed. A value that is not
// a channel goes straight to reflect, which panics as under go test.

// reflectChan is the channel v holds, if v is a channel.
func reflectChan(v reflect.Value) (*hchan, bool) {
	if !v.IsValid() || v.Kind() != reflect.Chan || !chanLayoutOK {
		return nil, false
	}
	return (*hchan)(v.UnsafePointer()), true
}

// ReflectSelect is reflect.Select(cases).
func ReflectSelect(site string, cases []reflect.SelectCase) (int, reflect.Value, bool) {
	if !eng.active.Load() || !chanLayoutOK {
		return reflect.Select(cases)
	}
	var cs []Case
	var idx []int // the index in cases of each of cs
	def := -1
	for i, c := range cases {
		switch c.Dir {
		case reflect.SelectDefault:
			if def >= 0 {
				return reflect.Select(cases) // panics: multiple defaults
			}
			def = i
		case reflect.SelectSend, reflect.SelectRecv:
			if !c.Chan.IsValid() {
				continue // reflect ignores the case
			}
			h, ok := reflectChan(c.Chan)
			if !ok {
				return reflect.Select(cases) // panics as reflect does
			}
			cs = append(cs, Case{ch: h, send: c.Dir == reflect.SelectSend})
			idx = append(idx, i)
		default:
			return reflect.Select(cases)
		}
	}
	k := Select(site, def >= 0, cs...)
	switch {
	case k == selectAll: // not controlled
		return reflect.Select(cases)
	case k < 0:
		return def, reflect.Value{}, false
	}
	_, v, ok := reflect.Select([]reflect.SelectCase{cases[idx[k]]})
	SelectDone(k)
	return idx[k], v, ok
}

// ReflectSend is v.Send(x).
func ReflectSend(site string, v, x reflect.Value) {
	h, ok := reflectChan(v)
	if !ok {
		v.Send(x)
		return
	}
	e := eng
	g, m := e.enter()
	switch m {
	case modeControl:
		e.chanOp(g, site, h, true)
		v.Send(x)
		e.awaitPartner(g)
		return
	case modeSkip:
		return
	}
	v.Send(x)
	e.touchAsync(h)
	if g == nil {
		e.outsideChan(h, true)
	}
	e.opDone(g)
}

// ReflectRecv is v.Recv().
func ReflectRecv(site string, v reflect.Value) (reflect.Value, bool) {
	h, ok := reflectChan(v)
	if !ok {
		return v.Recv()
	}
	e := eng
	g, m := e.enter()
	switch m {
	case modeControl:
		e.chanOp(g, site, h, false)
		x, ok := v.Recv()
		e.awaitPartner(g)
		return x, ok
	case modeSkip:
		return reflect.Zero(v.Type().Elem()), false
	}
	x, ok := v.Recv()
	e.touchAsync(h)
	if g == nil {
		e.outsideChan(h, true)
	}
	e.opDone(g)
	return x, ok
}

// ReflectTrySend is v.TrySend(x): a select with one send case and a default.
func ReflectTrySend(site string, v, x reflect.Value) bool {
	h, ok := reflectChan(v)
	if !ok || !eng.active.Load() {
		return v.TrySend(x)
	}
	k := Select(site, true, Case{ch: h, send: true})
	if k != 0 {
		return false
	}
	sent := v.TrySend(x)
	SelectDone(k)
	return sent
}

// ReflectTryRecv is v.TryRecv(): a select with one receive case and a default.
func ReflectTryRecv(site string, v reflect.Value) (reflect.Value, bool) {
	h, ok := reflectChan(v)
	if !ok || !eng.active.Load() {
		return v.TryRecv()
	}
	k := Select(site, true, Case{ch: h})
	if k != 0 {
		return reflect.Value{}, false // would block: the zero Value, as reflect
	}
	x, ok := v.TryRecv()
	SelectDone(k)
	return x, ok
}

// ReflectClose is v.Close().
func ReflectClose(site string, v reflect.Value) {
	h, ok := reflectChan(v)
	if !ok {
		v.Close()
		return
	}
	if g, ok := closeKeyPoint(site, h); ok {
		v.Close()
		closeDone(g, h)
	}
}
