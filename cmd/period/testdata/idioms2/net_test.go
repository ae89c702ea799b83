package idioms2

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// newClient returns an http.Client with its own Transport so no connection is shared with other tests.
func newClient(timeout time.Duration) (*http.Client, *http.Transport) {
	tr := &http.Transport{}
	return &http.Client{Transport: tr, Timeout: timeout}, tr
}

// TestHTTPTestConcurrentClients checks that 10 concurrent clients are all served and counted exactly once.
func TestHTTPTestConcurrentClients(t *testing.T) {
	var hits atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprintf(w, "hello %s", r.URL.Query().Get("id"))
	}))
	defer ts.Close()
	client, tr := newClient(0)
	defer tr.CloseIdleConnections()

	const n = 10
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := client.Get(fmt.Sprintf("%s/?id=%d", ts.URL, i))
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				errs <- err
				return
			}
			if want := fmt.Sprintf("hello %d", i); string(body) != want {
				errs <- fmt.Errorf("body %q, want %q", body, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := hits.Load(); got != n {
		t.Fatalf("server saw %d requests, want %d", got, n)
	}
}

// TestHTTPServerHandlesRequestsConcurrently checks that N handlers can be in flight at once (each waits for all N).
func TestHTTPServerHandlesRequestsConcurrently(t *testing.T) {
	const n = 5
	var inside atomic.Int64
	allIn := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if inside.Add(1) == n {
			close(allIn)
		}
		<-allIn
		io.WriteString(w, "ok")
	}))
	defer ts.Close()
	client, tr := newClient(0)
	defer tr.CloseIdleConnections()

	codes := make(chan int, n)
	for range n {
		go func() {
			resp, err := client.Get(ts.URL)
			if err != nil {
				codes <- -1
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	for range n {
		if c := <-codes; c != http.StatusOK {
			t.Errorf("status %d", c)
		}
	}
	if got := inside.Load(); got != n {
		t.Fatalf("handlers entered %d, want %d", got, n)
	}
}

// TestServerShutdownWaitsForInFlight checks that http.Server.Shutdown does not return until a blocked handler finishes.
func TestServerShutdownWaitsForInFlight(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	var finished atomic.Bool
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		finished.Store(true)
		io.WriteString(w, "done")
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()

	client, tr := newClient(0)
	defer tr.CloseIdleConnections()
	type result struct {
		body string
		err  error
	}
	res := make(chan result, 1)
	go func() {
		resp, err := client.Get("http://" + ln.Addr().String())
		if err != nil {
			res <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		res <- result{string(b), err}
	}()

	<-entered
	shutdownErr := make(chan error, 1)
	go func() { shutdownErr <- srv.Shutdown(context.Background()) }()
	time.Sleep(10 * time.Millisecond) // give Shutdown a chance to start (not needed for correctness)
	select {
	case err := <-shutdownErr:
		t.Fatalf("Shutdown returned (%v) while a handler was still blocked", err)
	default:
	}
	close(release)
	if err := <-shutdownErr; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if !finished.Load() {
		t.Fatal("Shutdown returned before the in-flight handler finished")
	}
	if err := <-serveErr; !errors.Is(err, http.ErrServerClosed) {
		t.Fatalf("Serve returned %v, want ErrServerClosed", err)
	}
	r := <-res
	if r.err != nil || r.body != "done" {
		t.Fatalf("client got %q, %v", r.body, r.err)
	}
}

// TestClientTimeoutHandlerSeesCtxDone checks that http.Client.Timeout yields a timeout error and the handler's request context is then cancelled.
func TestClientTimeoutHandlerSeesCtxDone(t *testing.T) {
	handlerDone := make(chan error, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		handlerDone <- r.Context().Err()
	}))
	defer ts.Close()
	client, tr := newClient(30 * time.Millisecond)
	defer tr.CloseIdleConnections()

	start := time.Now()
	resp, err := client.Get(ts.URL)
	if err == nil {
		resp.Body.Close()
		t.Fatal("expected a timeout error, got a response")
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("error %v is not a timeout", err)
	}
	if el := time.Since(start); el < 30*time.Millisecond {
		t.Fatalf("timed out after %v, before the 30ms client timeout", el)
	}
	if herr := <-handlerDone; herr == nil {
		t.Fatal("handler context done but Err is nil")
	}
}

// TestIOPipeReadAll checks that io.ReadAll collects everything a writer goroutine writes, and sees CloseWithError's error.
func TestIOPipeReadAll(t *testing.T) {
	pr, pw := io.Pipe()
	var want bytes.Buffer
	for i := range 100 {
		fmt.Fprintf(&want, "chunk-%03d;", i)
	}
	go func() {
		for i := range 100 {
			fmt.Fprintf(pw, "chunk-%03d;", i)
		}
		pw.Close()
	}()
	got, err := io.ReadAll(pr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("got %d bytes, want %d", len(got), want.Len())
	}

	errWriter := errors.New("writer failed")
	pr2, pw2 := io.Pipe()
	go func() {
		io.WriteString(pw2, "partial")
		pw2.CloseWithError(errWriter)
	}()
	got, err = io.ReadAll(pr2)
	if string(got) != "partial" || !errors.Is(err, errWriter) {
		t.Fatalf("got %q, %v; want \"partial\", %v", got, err, errWriter)
	}
}

// TestNetPipePingPong checks a request/response exchange over the synchronous in-memory net.Pipe.
func TestNetPipePingPong(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	const rounds = 10
	srvErr := make(chan error, 1)
	go func() {
		defer b.Close()
		buf := make([]byte, 16)
		for i := range rounds {
			n, err := io.ReadFull(b, buf[:6])
			if err != nil {
				srvErr <- err
				return
			}
			if want := fmt.Sprintf("ping%02d", i); string(buf[:n]) != want {
				srvErr <- fmt.Errorf("server read %q, want %q", buf[:n], want)
				return
			}
			if _, err := fmt.Fprintf(b, "pong%02d", i); err != nil {
				srvErr <- err
				return
			}
		}
		srvErr <- nil
	}()
	buf := make([]byte, 6)
	for i := range rounds {
		if _, err := fmt.Fprintf(a, "ping%02d", i); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(a, buf); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("pong%02d", i); string(buf) != want {
			t.Fatalf("client read %q, want %q", buf, want)
		}
	}
	if err := <-srvErr; err != nil {
		t.Fatal(err)
	}
}

// TestNetPipeReadDeadline checks that a read deadline on net.Pipe yields os.ErrDeadlineExceeded, and clearing it allows a later read.
func TestNetPipeReadDeadline(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if err := a.SetReadDeadline(time.Now().Add(20 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	_, err := a.Read(buf)
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Read error %v, want os.ErrDeadlineExceeded", err)
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("error %v is not a net.Error timeout", err)
	}
	if err := a.SetReadDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	go b.Write([]byte("late"))
	n, err := io.ReadFull(a, buf)
	if err != nil || string(buf[:n]) != "late" {
		t.Fatalf("read %q, %v after clearing deadline", buf[:n], err)
	}
}

// TestTCPEchoServer checks a loopback echo server with one goroutine per connection, ended by closing the listener.
func TestTCPEchoServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var handlers sync.WaitGroup
	acceptErr := make(chan error, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				acceptErr <- err
				return
			}
			handlers.Add(1)
			go func() {
				defer handlers.Done()
				defer c.Close()
				io.Copy(c, c)
			}()
		}
	}()

	const clients = 5
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			msg := strings.Repeat(fmt.Sprintf("client %d says hi. ", i), 50)
			if _, err := io.WriteString(c, msg); err != nil {
				errs <- err
				return
			}
			if err := c.(*net.TCPConn).CloseWrite(); err != nil {
				errs <- err
				return
			}
			got, err := io.ReadAll(c)
			if err != nil {
				errs <- err
				return
			}
			if string(got) != msg {
				errs <- fmt.Errorf("client %d: echo mismatch (%d bytes, want %d)", i, len(got), len(msg))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	ln.Close()
	if err := <-acceptErr; !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Accept returned %v, want net.ErrClosed", err)
	}
	handlers.Wait()
}

// TestListenerCloseUnblocksAccept checks that closing a listener makes a blocked Accept return net.ErrClosed.
func TestListenerCloseUnblocksAccept(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	acceptErr := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			c.Close()
		}
		acceptErr <- err
	}()
	time.Sleep(5 * time.Millisecond) // let Accept block (not needed for correctness)
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-acceptErr; !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Accept returned %v, want net.ErrClosed", err)
	}
}

// TestScannerOverOSPipe checks that bufio.Scanner reads, in order, every line a goroutine writes to an os.Pipe.
func TestScannerOverOSPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const lines = 50
	go func() {
		bw := bufio.NewWriter(w)
		for i := range lines {
			fmt.Fprintf(bw, "line %d\n", i)
			if i%7 == 0 {
				bw.Flush()
			}
		}
		bw.Flush()
		w.Close()
	}()
	sc := bufio.NewScanner(r)
	i := 0
	for sc.Scan() {
		if want := fmt.Sprintf("line %d", i); sc.Text() != want {
			t.Fatalf("line %d = %q, want %q", i, sc.Text(), want)
		}
		i++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if i != lines {
		t.Fatalf("read %d lines, want %d", i, lines)
	}
}

// TestExecCommandContextCancel checks that cancelling the context kills a running "sleep" and Wait reports an error.
func TestExecCommandContextCancel(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("sleep not in PATH")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "sleep", "100")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start sleep: %v", err)
	}
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-waitErr; err == nil {
		t.Fatal("Wait returned nil for a killed process")
	}
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("ctx.Err() = %v, want Canceled", ctx.Err())
	}
	if cmd.ProcessState == nil || cmd.ProcessState.Success() {
		t.Fatalf("process state %v, want unsuccessful exit", cmd.ProcessState)
	}
}

// TestExecStdoutPipeConcurrentRead checks reading a child's stdout in a goroutine, calling Wait only after the reads finish.
func TestExecStdoutPipeConcurrentRead(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("sh not in PATH")
	}
	cmd := exec.Command("sh", "-c", "echo hi; echo there")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start sh: %v", err)
	}
	linesCh := make(chan []string, 1)
	go func() {
		var lines []string
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		linesCh <- lines
	}()
	lines := <-linesCh
	if err := cmd.Wait(); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if strings.Join(lines, ",") != "hi,there" {
		t.Fatalf("got lines %q", lines)
	}
}

// TestSignalSelfDelivery checks that a SIGUSR1 sent to our own process arrives on a signal.Notify channel.
func TestSignalSelfDelivery(t *testing.T) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR1)
	defer signal.Stop(c)
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	if s := <-c; s != syscall.SIGUSR1 {
		t.Fatalf("got signal %v, want SIGUSR1", s)
	}
}
