//go:build go1.21

package rt

import (
	"strings"
	"testing"
)

func init() {
	// A goroutine created first waits for both workers (a bystander); the
	// workers take two locks in opposite orders.
	programs["abba-bystander"] = func(t *testing.T) {
		var a, b Mutexish
		var wg WaitGroupish
		done := make(chan bool)
		WGAdd("t.add", &wg.WaitGroup, 2)
		Go("waiter", func() { WGWait("w.wait", &wg.WaitGroup); Send("w.done", done, true) })
		Go("go1", func() {
			Lock("g1.lockA", &a.Mutex)
			Lock("g1.lockB", &b.Mutex)
			Unlock("g1.unlockB", &b.Mutex)
			Unlock("g1.unlockA", &a.Mutex)
			WGDone("g1.done", &wg.WaitGroup)
		})
		Go("go2", func() {
			Lock("g2.lockB", &b.Mutex)
			Lock("g2.lockA", &a.Mutex)
			Unlock("g2.unlockA", &a.Mutex)
			Unlock("g2.unlockB", &b.Mutex)
			WGDone("g2.done", &wg.WaitGroup)
		})
		Recv("t.recv", done)
	}
	// A worker that sends while holding the lock its receiver needs first:
	// the receiver waits for a lock that a blocked goroutine holds.
	programs["send-under-lock"] = func(t *testing.T) {
		var mu Mutexish
		var wg WaitGroupish
		ch := make(chan int)
		WGAdd("t.add", &wg.WaitGroup, 2)
		Go("sender", func() {
			Lock("s.lock", &mu.Mutex)
			Send("s.send", ch, 1)
			Unlock("s.unlock", &mu.Mutex)
			WGDone("s.done", &wg.WaitGroup)
		})
		Go("receiver", func() {
			Lock("r.lock", &mu.Mutex)
			Unlock("r.unlock", &mu.Mutex)
			Recv("r.recv", ch)
			WGDone("r.done", &wg.WaitGroup)
		})
		WGWait("t.wait", &wg.WaitGroup)
	}
}

func init() {
	// Two goroutines that served each other's channel once (buffered: each
	// operation is its goroutine's own key point), then both receive.
	programs["chan-cycle"] = func(t *testing.T) {
		a, b := make(chan int, 1), make(chan int, 1)
		var wg WaitGroupish
		done := make(chan bool)
		WGAdd("t.add", &wg.WaitGroup, 2)
		Go("waiter", func() { WGWait("w.wait", &wg.WaitGroup); Send("w.done", done, true) })
		Go("go1", func() {
			Send("g1.a1", a, 1)
			Recv("g1.b1", b)
			Recv("g1.b2", b)
			WGDone("g1.done", &wg.WaitGroup)
		})
		Go("go2", func() {
			Recv("g2.a1", a)
			Send("g2.b1", b, 1)
			Recv("g2.a2", a)
			WGDone("g2.done", &wg.WaitGroup)
		})
		Recv("t.recv", done)
	}
}

func TestDeadlockChannelCycle(t *testing.T) {
	s := runChild(t, "chan-cycle", Config{Budget: 50, Seed: 5})
	if kinds(s) != "deadlock" {
		t.Fatalf("want a deadlock, got %+v", s.Bugs)
	}
	b := s.Bugs[0]
	if b.Location != "g1.b2" && b.Location != "g2.a2" {
		t.Errorf("Location %q, want a receive of the cycle (g1.b2 or g2.a2)\n%s", b.Location, b.Message)
	}
	if !strings.Contains(b.Message, "cycle of waits:") || !strings.Contains(b.Message, "the channel goroutine g0.3 served (send at g2.b1)") {
		t.Errorf("report lacks the channel cycle:\n%s", b.Message)
	}
}

// A deadlock is located in its cycle of waits, not at the test goroutine
// waiting for everybody, and the report starts with the cycle and says who
// holds which lock.
func TestDeadlockLocatedInCycle(t *testing.T) {
	s := runChild(t, "abba-bystander", Config{Budget: 300, Seed: 5})
	if kinds(s) != "deadlock" {
		t.Fatalf("want a deadlock, got %+v", s.Bugs)
	}
	b := s.Bugs[0]
	if b.Location != "g1.lockB" && b.Location != "g2.lockA" {
		t.Errorf("Location %q, want a lock wait of the cycle (g1.lockB or g2.lockA)\n%s", b.Location, b.Message)
	}
	m := b.Message
	cyc := strings.Index(m, "cycle of waits:")
	by := strings.Index(m, "blocked on wg.wait at w.wait")
	if cyc < 0 || by < 0 || cyc > by {
		t.Errorf("the cycle must come first, before the bystander:\n%s", m)
	}
	for _, want := range []string{
		"blocked on lock at g1.lockB waits for the lock goroutine g0.3 holds (locked at g2.lockB)",
		"blocked on lock at g2.lockA waits for the lock goroutine g0.2 holds (locked at g1.lockA)",
		"holds the lock locked at g1.lockA",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("report lacks %q:\n%s", want, m)
		}
	}
}

func TestDeadlockLocatedAtLockWaitOnBlockedHolder(t *testing.T) {
	s := runChild(t, "send-under-lock", Config{Budget: 300, Seed: 5})
	if kinds(s) != "deadlock" {
		t.Fatalf("want a deadlock, got %+v", s.Bugs)
	}
	b := s.Bugs[0]
	if b.Location != "r.lock" {
		t.Errorf("Location %q, want r.lock (waits for the lock the blocked sender holds)\n%s", b.Location, b.Message)
	}
	if !strings.Contains(b.Message, "blocked on lock at r.lock waits for the lock goroutine g0.1 holds (locked at s.lock)") {
		t.Errorf("report does not say who holds the lock:\n%s", b.Message)
	}
}
