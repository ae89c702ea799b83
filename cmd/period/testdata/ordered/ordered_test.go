package ordered

import (
	"os"
	"sync"
	"testing"
	"time"
)

var (
	window  = NewWindow(time.Hour) // opened at init, on the real clock
	started = time.Now()
	setups  int
)

// TestSetup has two goroutines, so Period explores it several times.
func TestSetup(t *testing.T) {
	done := make(chan bool)
	go func() { done <- true }()
	go func() { done <- true }()
	<-done
	<-done
	setups++
}

// TestAfterSetup relies on running after TestSetup, once, as go test runs it.
func TestAfterSetup(t *testing.T) {
	if setups != 1 {
		t.Errorf("TestSetup ran %d times before this test", setups)
	}
}

// TestWindowOpenedAtInit compares the present with instants read at init.
func TestWindowOpenedAtInit(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !window.Add() {
				t.Error("the window opened at init for an hour is closed")
			}
		}()
	}
	wg.Wait()
	if time.Now().Before(started) {
		t.Errorf("now %v is before the instant read at init %v", time.Now(), started)
	}
}

// TestReplaceDefault closes the default sink and leaves a new one, as
// rollbar-go's TestDisableDefaultClient does.
// Each run appends a line to $ORDERED_RUNS, if set: the suite counts the
// processes that ran it before TestCloseDefault.
func TestReplaceDefault(t *testing.T) {
	Default.Close()
	Default = NewSink()
	if name := os.Getenv("ORDERED_RUNS"); name != "" {
		f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("ran\n")
		f.Close()
	}
}

// TestCloseDefault closes the sink the test before it left, once; two
// goroutines make Period explore it several times.
func TestCloseDefault(t *testing.T) {
	done := make(chan bool)
	go func() { done <- true }()
	go func() { done <- true }()
	<-done
	<-done
	Default.Close()
}
