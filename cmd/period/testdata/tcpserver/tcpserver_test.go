package tcpserver

import (
	"bufio"
	"fmt"
	"net"
	"testing"
)

// Twenty requests over one connection, the server closed by a Cleanup
// registered through the package's Tester interface: under Period the
// reader goroutine, back at its socket right after handing over a line,
// is waited for only milliseconds, and the Cleanup runs at the end of the
// run (miniredis' tests were abandoned after a minute each).
func TestRequests(t *testing.T) {
	s := RunT(t)
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	r := bufio.NewReader(c)
	for i := range 20 {
		fmt.Fprintf(c, "req%d\n", i)
		got, err := r.ReadString('\n')
		if err != nil || got != fmt.Sprintf("REQ%d\n", i) {
			t.Fatalf("request %d: %q %v", i, got, err)
		}
	}
}
