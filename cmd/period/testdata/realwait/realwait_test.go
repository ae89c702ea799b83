package realwait

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

func slowServer(t *testing.T, d time.Duration) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { time.Sleep(d) }))
	t.Cleanup(srv.Close)
	return srv.URL
}

func get(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// A request the handler answers after 100 ms of real time takes 100 ms on
// the test's clock, not 0.
func TestRequestTakesItsRealTime(t *testing.T) {
	url := slowServer(t, 100*time.Millisecond)
	start := time.Now()
	if err := get(url); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 100*time.Millisecond || took > 2*time.Second {
		t.Fatalf("took %v", took)
	}
}

// A child process that sleeps 200 ms takes 200 ms on the test's clock.
func TestChildProcessTakesItsRealTime(t *testing.T) {
	start := time.Now()
	if err := exec.Command("sleep", "0.2").Run(); err != nil {
		t.Skip("no sleep command:", err)
	}
	if took := time.Since(start); took < 200*time.Millisecond || took > 3*time.Second {
		t.Fatalf("took %v", took)
	}
}

// A ticker ticks through a request in flight: 10 ms ticks beside a 100 ms
// request tick several times before the response, as on a machine.
func TestTickerTicksDuringRequest(t *testing.T) {
	url := slowServer(t, 100*time.Millisecond)
	done := make(chan struct{})
	go func() { get(url); close(done) }()
	tk := time.NewTicker(10 * time.Millisecond)
	defer tk.Stop()
	ticks := 0
	for {
		select {
		case <-done:
			if ticks < 4 {
				t.Fatalf("%d ticks during a 100 ms request", ticks)
			}
			return
		case <-tk.C:
			ticks++
		}
	}
}

// The hedged-request shape (cristalhq/hedgedhttp): requests go to a pool
// whose workers an earlier test may have left running, outside control in
// this run; a 30 ms timer between requests must not outrun a 60 ms
// response on the real clock, and the first response wins well before the
// 30-day timer that guards the last wait.
func TestPoolWorkersOutsideControl(t *testing.T) {
	url := slowServer(t, 60*time.Millisecond)
	results := make(chan int, 3)
	start := time.Now()
	var got int
	for sent := 0; got == 0; sent++ {
		if sent < 3 {
			Submit(func() { get(url); results <- sent })
		}
		wait := 30 * time.Millisecond
		if sent >= 3 {
			wait = 30 * 24 * time.Hour
		}
		timer := time.NewTimer(wait)
		select {
		case got = <-results:
			got++
		case <-timer.C:
		}
		timer.Stop()
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("first response after %v", took)
	}
}

// A client's timeout (real, in net/http) against a slow handler: the test's
// clock shows it took about the timeout, not 100 ns.
func TestClientTimeoutTakesItsTime(t *testing.T) {
	url := slowServer(t, 300*time.Millisecond)
	c := &http.Client{Timeout: 20 * time.Millisecond}
	start := time.Now()
	if _, err := c.Get(url); err == nil {
		t.Fatal("no timeout")
	}
	if took := time.Since(start); took < 20*time.Millisecond || took > 2*time.Second {
		t.Fatalf("timed out after %v", took)
	}
}

// A request under a 50 ms context deadline (a virtual timer) ends with
// DeadlineExceeded no earlier than 50 ms on the test's clock (it read
// 49.9999 ms).
func TestContextDeadlineOnRequest(t *testing.T) {
	url := slowServer(t, 300*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	start := time.Now()
	_, err := http.DefaultClient.Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the deadline, got %v", err)
	}
	if took := time.Since(start); took < 50*time.Millisecond || took > 2*time.Second {
		t.Fatalf("after %v", took)
	}
}

// slowTransport answers after a sleep of the test's clock, racing the
// request's context as a mock transport does (jarcoal/httpmock).
type slowTransport struct{ d time.Duration }

func (s slowTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res := make(chan error, 1)
	go func() {
		time.Sleep(s.d)
		res <- nil
	}()
	select {
	case <-req.Context().Done():
		return nil, req.Context().Err()
	case <-res:
		return &http.Response{StatusCode: 200, Body: http.NoBody, Request: req}, nil
	}
}

// http.Client's Timeout is a context the standard library cancels with a
// real timer: 5 ms of it end before a transport's 1 s sleep, as on a
// machine, not after the clock jumped over that sleep at once.
func TestClientTimeoutBeatsSlowTransport(t *testing.T) {
	client := &http.Client{Timeout: 5 * time.Millisecond, Transport: slowTransport{time.Second}}
	if _, err := client.Get("http://example.invalid/"); err == nil {
		t.Error("a 1 s response beat the client's 5 ms timeout")
	}
}

// A goroutine started by one back from a real wait (here a child process),
// before any key point of its own, runs while its parent reads what it
// writes through a pipe (tidwall/redcon's TestRandomCommands was abandoned:
// the child waited for a decision nobody took).
func TestSpawnAfterRealWait(t *testing.T) {
	if err := exec.Command("sleep", "0.05").Run(); err != nil {
		t.Skip(err)
	}
	rd, wr := io.Pipe()
	go func() {
		defer wr.Close()
		io.WriteString(wr, "hello")
	}()
	b, err := io.ReadAll(rd)
	if err != nil || string(b) != "hello" {
		t.Fatalf("read %q, %v", b, err)
	}
}

// A read deadline computed from the test's clock after it jumped (a
// 10 s sleep, instant under Period: the clock runs ahead of the real one)
// is a real instant as far away as the program meant: the read times out
// 50 ms later, as under go test, instead of 10 s of real time later (past
// the hang limit: the schedule was abandoned).
func TestPipeDeadlineAfterClockJump(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	time.Sleep(10 * time.Second)
	var c net.Conn = a
	if err := c.SetReadDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read: %v, want a deadline exceeded", err)
	}
}

// The test reads a pipe with a 10 ms deadline while the goroutine that
// writes it waits in the model for its turn (simonvetter/modbus's
// transport tests): a reader blocked for real is detached within a
// fraction of a millisecond, so the writer runs well before the deadline.
func TestPipeReadWhileWriterWaitsItsTurn(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	in := make(chan []byte, 3)
	go func() {
		for p := range in {
			if _, err := b.Write(p); err != nil {
				return
			}
		}
	}()
	for i := 0; i < 3; i++ {
		in <- []byte{byte(i)}
	}
	close(in)
	buf := make([]byte, 1)
	for i := 0; i < 3; i++ {
		a.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
		if _, err := a.Read(buf); err != nil || buf[0] != byte(i) {
			t.Fatalf("read %d: %v %v", i, buf, err)
		}
	}
}

// The handler, a goroutine of net/http outside control, signals through a
// select with a default; the test waits for it beside a 2 s timeout. A
// real clock shows the request within milliseconds: the signal must be
// seen before the clock jumps (mark3labs/mcp-go's
// TestOAuthHandler_GetServerMetadata_DoesNotHoldLockAcrossHTTP failed).
func TestHandlerSignalsThroughSelect(t *testing.T) {
	release := make(chan struct{})
	hit := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case hit <- struct{}{}:
		default:
		}
		<-release
	}))
	t.Cleanup(srv.Close)
	var mu sync.Mutex
	url := srv.URL
	done := make(chan struct{})
	go func() {
		defer close(done)
		mu.Lock()
		u := url
		mu.Unlock()
		get(u)
	}()
	select {
	case <-hit:
	case <-time.After(2 * time.Second):
		t.Error("the handler's signal was not seen within 2 s")
	}
	close(release)
	<-done
}

// The same on a concrete connection of the standard library: a deadline
// computed from the clock after a jump is as far from now on the real clock
// as the test meant, not ten seconds later.
func TestTCPDeadlineAfterClockJump(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			defer c.Close()
			io.Copy(io.Discard, c)
		}
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tcp := c.(*net.TCPConn)
	time.Sleep(10 * time.Second)
	start := time.Now()
	if err := tcp.SetReadDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if _, err := tcp.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read: %v, want a deadline exceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the 50 ms deadline took %v", d)
	}
}

// The handler, outside control, registers with a goroutine of the test
// over an unbuffered channel (r3labs/sse's stream), and the client waits
// for the answer beside a 100 ms timeout: the registering goroutine must be
// let receive as soon as the handler waits on the channel.
func TestHandlerRegistersWithControlledGoroutine(t *testing.T) {
	register := make(chan chan string)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case reply := <-register:
				reply <- "ok"
			case <-quit:
				return
			}
		}
	}()
	defer close(quit)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reply := make(chan string)
		register <- reply
		io.WriteString(w, <-reply)
	}))
	defer srv.Close()
	done := make(chan error, 1)
	go func() { done <- get(srv.URL) }()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(100 * time.Millisecond):
		t.Error("the request did not return within 100 ms")
		<-done
	}
}

// The same registration through a select without default in the handler.
func TestHandlerRegistersThroughSelect(t *testing.T) {
	register := make(chan chan string)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case reply := <-register:
				reply <- "ok"
			case <-quit:
				return
			}
		}
	}()
	defer close(quit)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reply := make(chan string)
		select {
		case register <- reply:
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, <-reply)
	}))
	defer srv.Close()
	done := make(chan error, 1)
	go func() { done <- get(srv.URL) }()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(100 * time.Millisecond):
		t.Error("the request did not return within 100 ms")
		<-done
	}
}

// After a run has computed for a while (virtual time runs behind real
// time then), a dial with a context timeout is given its full timeout on
// the real clock: the standard library reads the context's deadline
// (bradfitz/gomemcache's 500 ms dial timed out at once).
func TestDialTimeoutAfterWork(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	var mu sync.Mutex
	n := 0
	for i := 0; i < 300000; i++ { // steps, each far slower than its virtual 100 ns
		mu.Lock()
		n++
		mu.Unlock()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("dial after %d steps: %v", n, err)
	}
	c.Close()
}

// A scheduler init started (outside control) wakes, through a buffered
// channel, to run a connection's updates every 10 ms; the test waits for
// twenty of them with a 20 s timeout, which the clock must not jump to
// while the scheduler works (xtaci/kcp-go's echo tests timed out at once).
func TestUpdatesFromInitScheduler(t *testing.T) {
	c := NewConn()
	start := time.Now()
	if !c.Wait(20, 20*time.Second) {
		t.Fatalf("20 updates did not come in 20s (%v)", time.Since(start))
	}
}

// A goroutine outside control signals a sync.Cond a controlled worker
// waits on: the worker wakes (kcp-go's post-process workers, fed by its
// timed updates, never did: the echo tests timed out).
func TestCondSignalledFromOutside(t *testing.T) {
	q := NewQueue()
	got := make(chan int)
	go func() { got <- q.Pop() }()
	q.PushLater(7, 10*time.Millisecond)
	select {
	case v := <-got:
		if v != 7 {
			t.Fatalf("popped %d", v)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the worker never woke")
	}
}

// The test signals a Cond a goroutine outside control waits on, under a
// lock both take, three times: the waiter wakes each time, and its hold of
// the lock in the model is given up while it waits.
func TestCondWaitOutsideControl(t *testing.T) {
	for range 3 {
		want, got, ok := NextRound(20 * time.Second)
		if !ok || got != want {
			t.Fatalf("round %d: the waiter saw %d (%v)", want, got, ok)
		}
	}
}
