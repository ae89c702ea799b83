//go:build unix

// Package selfsignal: a test sends its own process a signal that a
// goroutine waits for through signal.Notify, sleeps 10 ms and expects the
// handler to have run (hashicorp/go-metrics' TestInmemSignal). The runtime
// delivers the signal within microseconds, outside Period's control: the
// virtual clock must not jump over the sleep before the delivery.
package selfsignal

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
	"testing"
	"time"
)

type dumper struct {
	mu     sync.Mutex
	dumped int
	sigCh  chan os.Signal
	stopCh chan struct{}
}

func (d *dumper) run() {
	for {
		select {
		case <-d.sigCh:
			d.mu.Lock()
			d.dumped++
			d.mu.Unlock()
		case <-d.stopCh:
			return
		}
	}
}

func TestSignalHandledBeforeTheSleepEnds(t *testing.T) {
	d := &dumper{sigCh: make(chan os.Signal, 1), stopCh: make(chan struct{})}
	signal.Notify(d.sigCh, syscall.SIGUSR1)
	defer signal.Stop(d.sigCh)
	go d.run()
	defer close(d.stopCh)

	if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dumped != 1 {
		t.Fatalf("the signal was handled %d times after 10 ms, want 1", d.dumped)
	}
}
