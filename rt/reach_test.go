//go:build go1.21

package rt

import (
	"sync"
	"sync/atomic"
	"testing"
)

type reachNode struct {
	next *reachNode
	vals map[string]any
	ch   chan int
}

// The walk from package-level variables finds channels behind pointers,
// cycles, maps, interfaces, slices, sync.Map, atomic.Pointer and channel
// buffers, and gives up (not found) past its budget.
func TestReachableChans(t *testing.T) {
	defer func(r []func() []any) { roots = r }(roots)
	inMap, inCycle, inSync, inAtomic, inBuffer, alone := make(chan int), make(chan int), make(chan int), make(chan int), make(chan int), make(chan int)
	a := &reachNode{}
	b := &reachNode{next: a, ch: inCycle}
	a.next = b // a cycle
	a.vals = map[string]any{"x": []any{inMap}}
	var m sync.Map
	m.Store("k", &reachNode{ch: inSync})
	var p atomic.Pointer[reachNode]
	p.Store(&reachNode{ch: inAtomic})
	q := make(chan []chan int, 2)
	q <- nil
	q <- []chan int{inBuffer}
	roots = []func() []any{func() []any { return []any{&a, &m, &p, &q} }}
	want := map[*hchan]bool{}
	for _, c := range []chan int{inMap, inCycle, inSync, inAtomic, inBuffer, alone} {
		want[chanOf(c)] = true
	}
	found := reachableChans(want)
	for name, c := range map[string]chan int{"map": inMap, "cycle": inCycle, "sync.Map": inSync, "atomic.Pointer": inAtomic, "buffer": inBuffer} {
		if !found[chanOf(c)] {
			t.Errorf("the channel in a %s was not reached", name)
		}
	}
	if found[chanOf(alone)] {
		t.Error("a channel no variable holds was reached")
	}

	// A list longer than the walk's budget: its last channel is not
	// found, and the walk ends.
	var head *reachNode
	for i := 0; i < maxReachVisits; i++ {
		head = &reachNode{next: head}
	}
	head.ch = nil
	last := head
	for last.next != nil {
		last = last.next
	}
	last.ch = alone
	roots = []func() []any{func() []any { return []any{&head} }}
	if found := reachableChans(map[*hchan]bool{chanOf(alone): true}); len(found) != 0 {
		t.Error("a channel beyond the walk's budget was reached")
	}
}
