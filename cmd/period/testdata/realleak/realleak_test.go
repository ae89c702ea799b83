package realleak

import (
	"io"
	"net"
	"testing"
)

func greet(t *testing.T, addr string) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b, err := io.ReadAll(c)
	if err != nil || string(b) != "hi" {
		t.Fatalf("read %q, %v", b, err)
	}
}

// The server goroutine is left in Accept when the test returns: a leak
// (goleak reports it), in code Period does not control.
func TestServerNeverClosed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	go Serve(ln)
	greet(t, ln.Addr().String())
}

// The same server closed by the test: nothing left behind.
func TestServerClosed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { ln.Close() })
	go Serve(ln)
	greet(t, ln.Addr().String())
}

// A goroutine panics while the test goroutine reads from a socket nobody
// writes to: go test dies of the panic. The run ends with the panic, and
// the reader, blocked for real, can never be unwound: the panic is
// reported (the test process ends after a grace), never a run waiting for
// ever.
func TestPanicWhileReading(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer pc.Close()
	go func() {
		var m map[int]int
		m[1] = 1
	}()
	buf := make([]byte, 8)
	pc.ReadFrom(buf)
}
