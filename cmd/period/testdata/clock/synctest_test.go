package clock

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// Inside a synctest bubble time is exact and synctest.Wait waits until every
// other goroutine is blocked, as under go test.
func TestSynctestBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var woke atomic.Int32
		for i := 0; i < 3; i++ {
			go func() {
				time.Sleep(2 * time.Second)
				woke.Add(1)
			}()
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := woke.Load(); n != 0 {
			t.Errorf("after 1s, %d goroutines woke from a 2s sleep", n)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := woke.Load(); n != 3 {
			t.Errorf("after 2s, %d of 3 goroutines woke", n)
		}
		if el := time.Since(start); el != 2*time.Second {
			t.Errorf("elapsed %v in the bubble, want exactly 2s", el)
		}
	})
}

// A goroutine blocked on a net.Pipe (a channel inside the standard library,
// which Period does not control) is durably blocked in a bubble, as synctest
// defines it: the bubble's clock moves at once, and an hour of sleeps
// takes no real hour (nor a real second per sleep).
func TestSynctestPipeServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		client, server := net.Pipe()
		go func() {
			buf := make([]byte, 1)
			for {
				if _, err := server.Read(buf); err != nil {
					return
				}
				server.Write(buf)
			}
		}()
		start := time.Now()
		buf := []byte{'x'}
		for i := 0; i < 12; i++ {
			time.Sleep(5 * time.Minute)
			if _, err := client.Write(buf); err != nil {
				t.Fatal(err)
			}
			if _, err := client.Read(buf); err != nil {
				t.Fatal(err)
			}
		}
		if el := time.Since(start); el != time.Hour {
			t.Errorf("elapsed %v in the bubble, want exactly 1h", el)
		}
		client.Close()
		server.Close()
	})
}

// synctest.Wait returns once the reader of a net.Pipe is back in its read
// (durably blocked, as synctest defines it, though Period sees it blocked
// for real): the in-memory transports of MCP's Go SDK. It waited for it
// until the schedule was abandoned.
func TestSynctestWaitBesidePipeReader(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := net.Pipe()
		incoming := make(chan byte)
		closed := make(chan struct{})
		go func() {
			buf := make([]byte, 1)
			for {
				_, err := a.Read(buf)
				if err != nil {
					return
				}
				select {
				case incoming <- buf[0]:
				case <-closed:
					return
				}
			}
		}()
		go func() { b.Write([]byte{'x'}) }()
		if got := <-incoming; got != 'x' {
			t.Errorf("got %q", got)
		}
		synctest.Wait()
		b.Close()
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		close(closed)
		a.Close()
	})
}

// synctest.Wait waits for the bubble's goroutines that the standard library
// started, as for the others: an http.Server's shutdown hooks run in
// goroutines of their own (outside Period's control) that Shutdown starts
// and does not wait for. Wait returned before the hook ran.
func TestSynctestWaitsForShutdownHooks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := &http.Server{}
		ran := false
		srv.RegisterOnShutdown(func() { ran = true })
		if err := srv.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if !ran {
			t.Error("synctest.Wait returned before the shutdown hook ran")
		}
	})
}

// Work takes no time inside a bubble, as under go test: its clock moves only
// when every goroutine of the bubble is durably blocked. Period's clock
// counts work elsewhere (a deadline checked between rounds of computation);
// not here.
func TestSynctestWorkTakesNoTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		buf := make([]int, 1<<12)
		for round := 0; round < 256; round++ {
			for i := range buf {
				buf[i] += round
			}
		}
		if el := time.Since(start); el != 0 {
			t.Errorf("%v passed in the bubble during work alone, want 0", el)
		}
		time.Sleep(time.Second)
		if el := time.Since(start); el != time.Second {
			t.Errorf("elapsed %v after work and a 1s sleep, want exactly 1s", el)
		}
	})
}
