package rt

import (
	"sync"
	"testing"
)

type embInner struct {
	sync.Mutex
	n int
}

type embOuter struct {
	x int
	*embInner
	byValue embInner
}

type embValue struct{ *embInner }

func TestEmbeddedFollowsPathAndPointers(t *testing.T) {
	o := &embOuter{embInner: &embInner{}}
	if got := Embedded[sync.Mutex](o, 1, 0); got != &o.embInner.Mutex {
		t.Errorf("through an embedded pointer: %p, want %p", got, &o.embInner.Mutex)
	}
	if got := Embedded[sync.Mutex](o, 2, 0); got != &o.byValue.Mutex {
		t.Errorf("through a struct field: %p, want %p", got, &o.byValue.Mutex)
	}
	v := embValue{embInner: o.embInner}
	if got := Embedded[sync.Mutex](v, 0, 0); got != &o.embInner.Mutex {
		t.Errorf("a value whose path goes through a pointer: %p, want %p", got, &o.embInner.Mutex)
	}
	if got := Embedded[sync.Mutex](&embOuter{}, 1, 0); got != nil {
		t.Errorf("nil pointer on the path: %p, want nil", got)
	}
}
