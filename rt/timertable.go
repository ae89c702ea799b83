//go:build go1.24

package rt

import (
	"unsafe"
	"weak"
)

// timerTable maps the timers (or tickers) Period made in this run to their
// virtual timers without keeping them alive: each is the first field of a
// box that holds its vtimer, and the table knows the box only weakly. A
// timer the program dropped is then collected as under go test, with what
// its AfterFunc function holds (xtaci/kcp-go checks with weak pointers that
// a closed session's deadlines are collected); an active one stays alive
// through the clock's queue, as the runtime's timer heap keeps it.
type timerTable[T any] struct {
	made map[uintptr]weak.Pointer[timerBox[T]]
	// Timers of an earlier run that this run adopted (adoptTimer): not
	// necessarily boxes, so held the plain way.
	adopted map[*T]*vtimer
}

type timerBox[T any] struct {
	obj T // first: &box.obj is the box's address
	vt  *vtimer
}

func newTimerTable[T any]() timerTable[T] {
	return timerTable[T]{made: map[uintptr]weak.Pointer[timerBox[T]]{}, adopted: map[*T]*vtimer{}}
}

// make returns a fresh object for vt.
func (tt timerTable[T]) make(vt *vtimer) *T {
	b := &timerBox[T]{vt: vt}
	tt.made[uintptr(unsafe.Pointer(b))] = weak.Make(b)
	return &b.obj
}

// get returns p's virtual timer, or nil if this run did not make or adopt p.
func (tt timerTable[T]) get(p *T) *vtimer {
	if w, ok := tt.made[uintptr(unsafe.Pointer(p))]; ok {
		if b := w.Value(); b != nil && &b.obj == p {
			return b.vt
		}
	}
	return tt.adopted[p]
}

func (tt timerTable[T]) adopt(p *T, vt *vtimer) { tt.adopted[p] = vt }
