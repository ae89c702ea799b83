package loopy

import (
	"os"
	"testing"
)

func TestSharedLoopVars(t *testing.T) {
	ch := make(chan int, 3)
	ch <- 1
	ch <- 2
	ch <- 3
	close(ch)
	for _, f := range Collect(ch) {
		if got := f(); got != 3 {
			t.Errorf("range var: got %d, want 3 (go 1.13 shares loop variables)", got)
		}
	}
	for _, f := range Indexes(3) {
		if got := f(); got != 3 {
			t.Errorf("for var: got %d, want 3", got)
		}
	}
}

func TestCounterAndSpawn(t *testing.T) {
	var c Counter
	done := make(chan bool)
	for i := 0; i < 4; i++ {
		go func() {
			c.Inc()
			done <- true
		}()
	}
	for i := 0; i < 4; i++ {
		<-done
	}
	if c.Get() != 4 {
		t.Errorf("counter = %d", c.Get())
	}
	if got := Spawn(5); got != 10 {
		t.Errorf("Spawn(5) = %d, want 10", got)
	}
}

func TestFirst(t *testing.T) {
	a, b := make(chan int, 1), make(chan int)
	a <- 7
	if got := First(a, b); got != 7 {
		t.Errorf("First = %d", got)
	}
	close(b)
	if got := First(make(chan int), b); got != -2 {
		t.Errorf("First on closed = %d", got)
	}
}

func TestFailsOnRequest(t *testing.T) {
	switch os.Getenv("PERIOD_RW_FAIL") {
	case "errorf":
		t.Errorf("requested failure") // MARK:errorf
	case "panic":
		Crash()
	}
}
