//go:build go1.21

package rt

import (
	"fmt"
	"testing"

	"github.com/period-dev/period/strategy"
)

// The step log gives back every event as it was added, across chunks and
// runs, with sites made at run time as well as constant ones.
func TestStepLogRoundTrip(t *testing.T) {
	var l stepLog
	for run := 0; run < 2; run++ {
		l.reset()
		var want []strategy.Event
		for i := 0; i < 3*stepChunk+17; i++ {
			site := "a.go:1"
			if i%7 == 0 {
				site = fmt.Sprintf("b.go:%d", i%50) // a new string each time
			}
			ev := strategy.Event{G: strategy.GID(i % 1000), Op: strategy.Op(i % 5), Obj: uintptr(i * 8), Site: site}
			want = append(want, ev)
			l.add(ev)
		}
		if l.Len() != len(want) {
			t.Fatalf("run %d: Len = %d, want %d", run, l.Len(), len(want))
		}
		for i, ev := range want {
			if got := l.At(i); got != ev {
				t.Fatalf("run %d: At(%d) = %+v, want %+v", run, i, got, ev)
			}
		}
		if got := l.events(); len(got) != len(want) || got[len(got)-1] != want[len(want)-1] {
			t.Fatalf("run %d: events() differs", run)
		}
		if n := len(l.sites.list); n > 2*5+50*5 {
			t.Errorf("run %d: %d interned (op, site) pairs, want at most %d", run, n, 2*5+50*5)
		}
	}
}

// A strategy that reads the run through Len and At sees the same
// interleaving as one that reads Run.Events (the engine builds Events only
// for the latter).
func TestRunLogSameAsEvents(t *testing.T) {
	var l stepLog
	var evs []strategy.Event
	for i := 0; i < 100; i++ {
		ev := strategy.Event{G: strategy.GID(i % 3), Op: strategy.OpSend, Obj: 8, Site: "x.go:3"}
		l.add(ev)
		evs = append(evs, ev)
	}
	viaLog := &strategy.Run{Log: &l}
	viaEvents := &strategy.Run{Events: evs}
	both := &strategy.Run{Log: &l, Events: l.events()}
	for _, r := range []*strategy.Run{viaLog, viaEvents, both} {
		if r.Len() != len(evs) {
			t.Fatalf("Len = %d, want %d", r.Len(), len(evs))
		}
		for i := range evs {
			if r.At(i) != evs[i] {
				t.Fatalf("At(%d) = %+v, want %+v", i, r.At(i), evs[i])
			}
		}
	}
	if !readsLog(&randomLike{}) || readsLog(&testRandom{}) {
		t.Errorf("readsLog: a LogReader must read the log, testRandom must get Events")
	}
	if !readsLog(&journal{Strategy: &randomLike{}}) || readsLog(&journal{Strategy: &testRandom{}}) {
		t.Errorf("readsLog through a journal must ask the journaled strategy")
	}
}

type randomLike struct{ testRandom }

func (*randomLike) ReadsLog() {}
