package main

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// With -p, the first build runs alone: the others start once it has ended
// (they then find the dependencies it compiled in the build cache).
func TestFirstBuildRunsAlone(t *testing.T) {
	par, err := newParallelism(2, "")
	if err != nil {
		t.Fatal(err)
	}
	var builds, firstEnded atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := par.gated(context.Background(), func() error {
				if builds.Add(1) == 1 {
					<-release // the others must not start meanwhile
					firstEnded.Store(1)
				} else if firstEnded.Load() == 0 {
					t.Errorf("build of goroutine %d started before the first build ended", i)
				}
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	for builds.Load() == 0 {
		runtime.Gosched()
	}
	// Give the others every chance to start (they must not), then end
	// the first build.
	for range 10000 {
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if n := builds.Load(); n != 4 {
		t.Fatalf("%d builds ran, want 4", n)
	}
}
