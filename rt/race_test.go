//go:build go1.21

package rt

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Racy and race-free twins for every kind of synchronisation the race
// detector understands. A twin differs from its racy sibling only by the
// synchronisation, so a false positive or a missed race shows up as a
// disagreement.
var raceTwins = map[string]struct {
	racy bool
	body func(t *testing.T)
}{
	"plain": {true, func(t *testing.T) {
		x := new(int)
		done := make(chan bool, 1)
		Go("go", func() { *W("child.write", x) = 1; Send("done", done, true) })
		*W("parent.write", x) = 2
		Recv("wait", done)
	}},
	"mutex": {false, func(t *testing.T) {
		x := new(int)
		var mu sync.Mutex
		done := make(chan bool, 1)
		Go("go", func() {
			Lock("l", &mu)
			*W("child.write", x) = 1
			Unlock("u", &mu)
			Send("done", done, true)
		})
		Lock("l", &mu)
		*W("parent.write", x) = 2
		Unlock("u", &mu)
		Recv("wait", done)
	}},
	"unbuffered": {false, func(t *testing.T) {
		x := new(int)
		ch := make(chan int)
		Go("go", func() { *W("child.write", x) = 1; Send("send", ch, 1) })
		Recv("recv", ch)
		*W("parent.write", x) = 2
	}},
	"unbuffered-recv-before-send-completes": {false, func(t *testing.T) {
		x := new(int)
		ch := make(chan int)
		Go("go", func() { Recv("recv", ch); *W("child.write", x) = 1 })
		*W("parent.write", x) = 2
		Send("send", ch, 1)
	}},
	"buffered-capacity-semaphore": {false, func(t *testing.T) {
		x := new(int)
		sem := make(chan struct{}, 1)
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			WGAdd("add", &wg, 1)
			Go("go", func() {
				defer WGDone("done", &wg)
				Send("acquire", sem, struct{}{})
				*W("write", x) = *R("read", x) + 1
				Recv("release", sem)
			})
		}
		WGWait("wait", &wg)
	}},
	"buffered-no-order-between-senders": {true, func(t *testing.T) {
		x := new(int)
		ch := make(chan int, 2)
		Go("go", func() { *W("child.write", x) = 1; Send("s1", ch, 1) })
		*W("parent.write", x) = 2
		Send("s2", ch, 2)
		Recv("r", ch)
		Recv("r", ch)
	}},
	"close": {false, func(t *testing.T) {
		x := new(int)
		ch := make(chan int)
		Go("go", func() { *W("child.write", x) = 1; Close("close", ch) })
		Recv("recv", ch)
		_ = *R("parent.read", x)
	}},
	"waitgroup": {false, func(t *testing.T) {
		x := new(int)
		var wg sync.WaitGroup
		WGAdd("add", &wg, 1)
		Go("go", func() { *W("child.write", x) = 1; WGDone("done", &wg) })
		WGWait("wait", &wg)
		_ = *R("parent.read", x)
	}},
	"waitgroup-missing": {true, func(t *testing.T) {
		x := new(int)
		var wg sync.WaitGroup
		WGAdd("add", &wg, 1)
		Go("go", func() { WGDone("done", &wg); *W("child.write", x) = 1 })
		WGWait("wait", &wg)
		_ = *R("parent.read", x)
	}},
	"once": {false, func(t *testing.T) {
		x := new(int)
		var once sync.Once
		done := make(chan bool, 1)
		Go("go", func() {
			OnceDo("once", &once, func() { *W("init", x) = 1 })
			_ = *R("child.read", x)
			Send("d", done, true)
		})
		OnceDo("once", &once, func() { *W("init", x) = 1 })
		_ = *R("parent.read", x)
		Recv("w", done)
	}},
	"atomic-flag": {false, func(t *testing.T) {
		x := new(int)
		var flag atomic.Int32
		Go("go", func() { *W("child.write", x) = 1; Atomic("store", &flag).Store(1) })
		for Atomic("load", &flag).Load() == 0 {
			Gosched("spin")
		}
		_ = *R("parent.read", x)
	}},
	"cond": {false, func(t *testing.T) {
		x := new(int)
		var mu sync.Mutex
		c := NewCond(&mu)
		ready := new(bool)
		Go("go", func() {
			*W("child.write", x) = 1
			Lock("l", &mu)
			*W("ready", ready) = true
			CondSignal("signal", c)
			Unlock("u", &mu)
		})
		Lock("l", &mu)
		for !*R("ready", ready) {
			CondWait("wait", c)
		}
		Unlock("u", &mu)
		_ = *R("parent.read", x)
	}},
}

func init() {
	for name, tw := range raceTwins {
		programs["race-"+name] = tw.body
	}
}

func TestRaceDetectionTwins(t *testing.T) {
	for name, tw := range raceTwins {
		name, tw := name, tw
		t.Run(name, func(t *testing.T) {
			s := runChild(t, "race-"+name, Config{Budget: 100, Seed: 11, Continue: true})
			var races []string
			for _, b := range s.Bugs {
				if b.Kind == "race" {
					races = append(races, b.Message)
				} else {
					t.Errorf("unexpected %s: %s", b.Kind, b.Message)
				}
			}
			if tw.racy && len(races) == 0 {
				t.Errorf("racy program: no race found in %d schedules", s.Schedules)
			}
			if !tw.racy && len(races) > 0 {
				t.Errorf("race-free program: false positive:\n%s", strings.Join(races, "\n"))
			}
		})
	}
}
