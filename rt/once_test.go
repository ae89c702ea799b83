//go:build go1.21

package rt

import "testing"

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
