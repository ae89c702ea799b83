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
