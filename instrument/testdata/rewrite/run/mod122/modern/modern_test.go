package modern

import (
	"context"
	"fmt"
	"os"
	"testing"
)

func TestPerIterationLoopVars(t *testing.T) {
	ch := make(chan int, 3)
	ch <- 1
	ch <- 2
	ch <- 3
	close(ch)
	for i, f := range Collect(ch) {
		if got := f(); got != i+1 {
			t.Errorf("range var: got %d, want %d (go 1.22 has per-iteration variables)", got, i+1)
		}
	}
	for i, f := range Indexes(3) {
		if got := f(); got != i {
			t.Errorf("for var: got %d, want %d", got, i)
		}
	}
}

func TestMapAndStats(t *testing.T) {
	got := Map([]int{1, 2, 3}, func(x int) string { return string(rune('a' + x)) })
	if got[0] != "b" || got[2] != "d" {
		t.Errorf("Map = %v", got)
	}
	var s Stats
	done := make(chan struct{})
	for range 3 {
		go func() {
			s.Hit("k")
			done <- struct{}{}
		}()
	}
	for range 3 {
		<-done
	}
	if s.Seen("k") != 3 || s.hits.Load() != 3 {
		t.Errorf("stats: seen %d hits %d", s.Seen("k"), s.hits.Load())
	}
	if Config() != "cfg" || Config() != "cfg" || calls != 2 {
		t.Errorf("config: calls=%d", calls)
	}
}

func TestPipeline(t *testing.T) {
	if got := Pipeline(context.Background(), 4); got != 10 {
		t.Errorf("Pipeline = %d, want 10", got)
	}
}

func TestFailsOnRequest(t *testing.T) {
	switch os.Getenv("PERIOD_RW_FAIL") {
	case "errorf":
		t.Errorf("requested failure") // MARK:errorf
	case "panic":
		Crash(nil)
	}
}

func TestGotoLabeledRewrites(t *testing.T) {
	ch := make(chan int, 8)
	for _, v := range []int{1, 2, 3, 4} {
		ch <- v
	}
	close(ch)
	got := Gotos(ch, make(chan bool))
	if want := []int{1, 2, 3, 4, -2}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Gotos = %v, want %v", got, want)
	}
}
