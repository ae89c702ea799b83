package pipesync

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"testing"
)

// The server's write of Got happens before its answer, and the answer
// before the test reads Got: io.Pipe orders them (go test -race sees its
// channels), so no race may be reported (rabbitmq/amqp091-go's client
// tests were reported racing).
func TestIOPipeOrdersAccesses(t *testing.T) {
	reqR, reqW := io.Pipe()
	ansR, ansW := io.Pipe()
	s := &Server{}
	go s.Serve(reqR, ansW)
	io.WriteString(reqW, "hello\n")
	if _, err := bufio.NewReader(ansR).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if s.Got != "hello\n" {
		t.Fatalf("got %q", s.Got)
	}
}

// The same over net.Pipe.
func TestNetPipeOrdersAccesses(t *testing.T) {
	c1, c2 := net.Pipe()
	s := &Server{}
	go s.Serve(c2, c2)
	io.WriteString(c1, "hi\n")
	if _, err := bufio.NewReader(c1).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if s.Got != "hi\n" {
		t.Fatalf("got %q", s.Got)
	}
}

// A genuine race beside the pipe conversation is still reported: two
// goroutines that do no I/O count requests without synchronisation.
func TestRaceBesidePipe(t *testing.T) {
	reqR, reqW := io.Pipe()
	ansR, ansW := io.Pipe()
	s := &Server{}
	go s.Serve(reqR, ansW)
	count := 0
	done := make(chan bool)
	for range 2 {
		go func() {
			count++
			done <- true
		}()
	}
	io.WriteString(reqW, "x\n")
	bufio.NewReader(ansR).ReadString('\n')
	<-done
	<-done
}

// Holder keeps the connection a writer uses.
type Holder struct{ Conn net.Conn }

// A writer that reads h.Conn and writes to it never waits for real when the
// reader is there first, yet the test's later write of h.Conn is ordered
// after it through net.Pipe (mochi-mqtt's TestServerProcessOutboundQos2Flow
// was reported racing): a goroutine that uses a connection reports no race.
func TestNetPipeWriterNeverWaits(t *testing.T) {
	r, w := net.Pipe()
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		got <- string(b)
	}()
	h := &Holder{Conn: w}
	go func() {
		h.Conn.Write([]byte("x"))
		h.Conn.Close()
	}()
	if s := <-got; s != "x" {
		t.Fatalf("read %q", s)
	}
	h.Conn = nil
}

// state is what a server's workers share: its reader hands each request it
// read from a connection to a worker of its own, and the client sends the
// next request only after the previous answer.
type state struct{ Step int }

// Two workers that never touch the connection are ordered through it: the
// first writes st.Step before its answer goes out, the second reads it
// after the next request came in (pkg/sftp's request workers were reported
// racing): accesses made after what a reader took off a connection reached
// them report no race.
func TestWorkersOrderedThroughConnection(t *testing.T) {
	client, server := net.Pipe()
	st := &state{}
	answers := make(chan string)
	go func() { // the server's writer
		for a := range answers {
			io.WriteString(server, a)
		}
	}()
	go func() { // the server's reader: one worker per request
		r := bufio.NewReader(server)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				close(answers)
				return
			}
			go func(first bool) {
				if first {
					st.Step = 1
				} else if st.Step != 1 {
					panic("the first request was not handled first")
				}
				answers <- "ok\n"
			}(line == "1\n")
		}
	}()
	r := bufio.NewReader(client)
	for _, req := range []string{"1\n", "2\n"} {
		io.WriteString(client, req)
		if _, err := r.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	client.Close()
}

// Writing to a standard stream orders nobody: two goroutines that log to
// os.Stderr and count without synchronisation still race.
func TestRaceWhileLogging(t *testing.T) {
	count := 0
	done := make(chan bool)
	for range 2 {
		go func() {
			fmt.Fprintln(os.Stderr, "working")
			count++
			done <- true
		}()
	}
	<-done
	<-done
}
