package conndeadline

import (
	"errors"
	"net"
	"os"
	"sync"
	"testing"
	"time"
)

// pair is a TCP connection over loopback, both ends.
func pair(t *testing.T) (client, server net.Conn) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			accepted <- nil
			return
		}
		accepted <- c
	}()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

// work takes a lock 300,000 times: a few milliseconds natively, and
// 600,000 key points under Period, which take longer than 100 ms of real
// time but about 60 ms of the program's clock.
func work(mu *sync.Mutex) int {
	n := 0
	for i := 0; i < 300_000; i++ {
		mu.Lock()
		n++
		mu.Unlock()
	}
	return n
}

// The reader's 100 ms deadline is not reached: the writer only locks
// (a few milliseconds natively) and writes. Before the deadline was a timer
// of the virtual clock, the real 100 ms passed while the writer locked
// under Period, and the read timed out.
func TestDeadlineWhileOthersCompute(t *testing.T) {
	client, server := pair(t)
	got := make(chan error, 1)
	var mu sync.Mutex
	go func() {
		mu.Lock()
		server.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		mu.Unlock()
		buf := make([]byte, 1)
		_, err := server.Read(buf)
		got <- err
	}()
	work(&mu)
	if _, err := client.Write([]byte{1}); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatalf("read: %v", err)
	}
}

// A deadline nobody beats expires, about when it should.
func TestDeadlineExpires(t *testing.T) {
	_, server := pair(t)
	start := time.Now()
	server.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	_, err := server.Read(make([]byte, 1))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read: %v, want a timeout", err)
	}
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Fatalf("timed out after %v, before the deadline", d)
	}
}

// SetDeadline(zero) clears an armed deadline: the read waits for the write.
func TestDeadlineCleared(t *testing.T) {
	client, server := pair(t)
	server.SetDeadline(time.Now().Add(10 * time.Millisecond))
	server.SetDeadline(time.Time{})
	go func() {
		time.Sleep(50 * time.Millisecond)
		client.Write([]byte{1})
	}()
	if _, err := server.Read(make([]byte, 1)); err != nil {
		t.Fatalf("read: %v", err)
	}
}

// The server's deadline expires first and its reply beats the client's
// later deadline, as on a machine (soheilhy/cmux's TestTimeout: a sniffer
// times out after 500 ms and the fallback matcher answers). Before, the
// clock fired the server's deadline and, seeing both ends still blocked
// for real, jumped at once to the client's: the client timed out before
// the server's read could return.
func TestEarlierDeadlineAnswersFirst(t *testing.T) {
	client, server := pair(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		server.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
		if _, err := server.Read(make([]byte, 1)); err == nil {
			t.Error("the server read a byte nobody wrote")
		}
		server.SetReadDeadline(time.Time{})
		server.Write([]byte("late"))
	}()
	client.SetReadDeadline(time.Now().Add(1500 * time.Millisecond))
	buf := make([]byte, 4)
	if _, err := client.Read(buf); err != nil {
		t.Fatalf("client read: %v", err)
	}
	<-done
}

// wrapped is a type of the program that embeds the connection and
// declares Read only: its deadline methods are net.Conn's, promoted.
type wrapped struct{ net.Conn }

func (w wrapped) Read(b []byte) (int, error) { return w.Conn.Read(b) }

// A deadline set through such a type is the connection's: a timer of the
// virtual clock. Before, the virtual instant went to the connection
// unchanged; after the run computed for a while (work: far more real time
// than virtual), the clock lagged real time by more than 100 ms and the
// read timed out at once (sarama's bufConn: every ListTopics retry failed
// with "i/o timeout").
func TestDeadlineThroughEmbeddingType(t *testing.T) {
	client, server := pair(t)
	var mu sync.Mutex
	work(&mu)
	conn := net.Conn(wrapped{server})
	if err := conn.SetReadDeadline(time.Now().Add(100 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	go client.Write([]byte{1})
	if _, err := conn.Read(make([]byte, 1)); err != nil {
		t.Fatalf("read: %v", err)
	}
}
