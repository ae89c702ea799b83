//go:build go1.21

package rt

import (
	"sync"
	"testing"
)

// A sync.OnceValue made at package level is package state: every schedule
// starts with it unused, as the counter it bumps is restored too.
var onceLoads int
var _ = Globals(func() func() { n := onceLoads; return func() { onceLoads = n } })
var onceDefault = OnceValue(func() int { onceLoads++; return 7 })

func init() {
	programs["once-package-level"] = func(t *testing.T) {
		done := make(chan int, 1)
		Go("go", func() { Send("send", done, onceDefault()) })
		v := onceDefault()
		if Recv("recv", done) != v || onceLoads != 1 {
			t.Fatalf("loads = %d", onceLoads)
		}
	}
}

func TestOnceValuePackageLevelEverySchedule(t *testing.T) {
	s := runChild(t, "once-package-level", Config{Budget: 20, Seed: 3})
	if len(s.Bugs) > 0 || s.Schedules < 2 {
		t.Fatalf("%d schedules, bugs %v", s.Schedules, s.Bugs)
	}
}

// A Once the program resets (r.once = sync.Once{}, bubbletea's renderer
// that can be restarted) runs its function again, as under go test: the
// model follows the real Once (bubbletea's TestTeaExec leaked the renderer
// goroutine a second stop never stopped).
func TestOnceResetRunsAgain(t *testing.T) {
	var o sync.Once
	n := 0
	runControlled(&alternate{}, func() {
		OnceDo("first", &o, func() { n++ })
		o = sync.Once{}
		OnceDo("second", &o, func() { n++ })
		OnceDo("third", &o, func() { n++ })
	})
	if n != 2 {
		t.Fatalf("f ran %d times, want 2 (once, then once after the reset)", n)
	}
}
