// Package proxyleak is a SOCKS-like proxy in go-socks5's shape: the test
// returns while the proxy's accept loop waits for real and its copying
// goroutines end after it.
package proxyleak

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"
)

type closeWriter interface{ CloseWrite() error }

func proxy(dst io.Writer, src io.Reader, errCh chan error) {
	_, err := io.Copy(dst, src)
	if tcpConn, ok := dst.(closeWriter); ok {
		tcpConn.CloseWrite()
	}
	errCh <- err
}

func serveConn(conn net.Conn, target string) {
	defer conn.Close()
	bufConn := bufio.NewReader(conn)
	v := []byte{0}
	if _, err := bufConn.Read(v); err != nil {
		return
	}
	tc, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer tc.Close()
	conn.Write([]byte{9})
	errCh := make(chan error, 2)
	go proxy(tc, bufConn, errCh)
	go proxy(conn, tc, errCh)
	for i := 0; i < 2; i++ {
		if e := <-errCh; e != nil {
			return
		}
	}
}

func serve(l net.Listener, target string) error {
	for {
		conn, err := l.Accept()
		if err != nil {
			return err
		}
		go serveConn(conn, target)
	}
}

// TestProxy leaves the proxy's accept loop running: a leak, reported about
// a second after the test returns, not a schedule abandoned after the
// watchdog's minute (a copying goroutine's last hook, after the test
// returned, kept the run from counting as idle).
func TestProxy(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 4)
		io.ReadAtLeast(c, buf, 4)
		c.Write([]byte("pong"))
	}()
	pl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		serve(pl, l.Addr().String())
	}()
	time.Sleep(10 * time.Millisecond)
	conn, err := net.Dial("tcp", pl.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	conn.Write([]byte{5, 'p', 'i', 'n', 'g'})
	out := make([]byte, 5)
	conn.SetDeadline(time.Now().Add(time.Second))
	if _, err := io.ReadAtLeast(conn, out, 5); err != nil {
		t.Fatal(err)
	}
	if string(out[1:]) != "pong" {
		t.Fatalf("got %q", out)
	}
}
