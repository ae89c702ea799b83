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

// yieldingLocker is a sync.Locker whose Unlock does more after unlocking
// (pebble's flusherCond checks a queue there): a key point between the
// Unlock of Cond.Wait and its wait.
type yieldingLocker struct{ mu sync.Mutex }

func (l *yieldingLocker) Lock() { Lock("locker.lock", &l.mu) }
func (l *yieldingLocker) Unlock() {
	Unlock("locker.unlock", &l.mu)
	Gosched("locker.after")
}

func init() {
	programs["cond-signal-during-unlock"] = func(t *testing.T) {
		l := &yieldingLocker{}
		c := NewCond(l)
		ready := new(bool)
		Go("signaler", func() {
			l.Lock()
			*W("ready.write", ready) = true
			CondSignal("signal", c)
			l.Unlock()
		})
		l.Lock()
		for !*R("ready.read", ready) {
			CondWait("wait", c)
		}
		l.Unlock()
	}
}

// A Signal sent after Cond.Wait unlocked but before it waits wakes the
// waiter, as sync.Cond's notifyListAdd before the Unlock makes it: every
// schedule ends (a lost wake-up left pebble's LogWriter.Close waiting for
// ever, reported as a hang).
func TestCondSignalDuringUnlockWakes(t *testing.T) {
	s := runChild(t, "cond-signal-during-unlock", Config{Strategy: "dfs", Budget: 500})
	if len(s.Bugs) != 0 || s.Schedules < 3 {
		t.Fatalf("%d schedules, bugs %v", s.Schedules, kinds(s))
	}
}
