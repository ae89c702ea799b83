package deps

import (
	"sync"
	"testing"

	"example.com/worklib"
	"golang.org/x/sync/errgroup"
)

func TestLostUpdateInDependency(t *testing.T) {
	var c worklib.Counter
	c.AddConcurrently(2)
	if c.N() != 2 {
		t.Errorf("N() = %d after two increments", c.N())
	}
}

func TestDeadlockInDependency(t *testing.T) {
	var x worklib.Accounts
	x.Transfer()
}

// The bug lives in the closures errgroup runs.
func TestErrgroupClosures(t *testing.T) {
	var g errgroup.Group
	total := 0
	for i := 1; i <= 2; i++ {
		g.Go(func() error {
			total += i
			return nil
		})
	}
	g.Wait()
	if total != 3 {
		t.Errorf("total = %d, want 3", total)
	}
}

func TestErrgroupClosuresLocked(t *testing.T) {
	var g errgroup.Group
	var mu sync.Mutex
	total := 0
	for i := 1; i <= 2; i++ {
		g.Go(func() error {
			mu.Lock()
			total += i
			mu.Unlock()
			return nil
		})
	}
	g.Wait()
	if total != 3 {
		t.Errorf("total = %d, want 3", total)
	}
}

// The test locks the dependency's lock through an unexported embedded
// field (the promoted h.Lock()): the same lock Degrade takes, so no race.
func TestLockPromotedThroughUnexportedField(t *testing.T) {
	h := worklib.NewHealth().Scope()
	done := make(chan struct{})
	go func() {
		h.Degrade()
		close(done)
	}()
	for {
		h.Lock()
		l := h.Level
		h.Unlock()
		if l == 2 {
			break
		}
	}
	<-done
}
