// Package fixedport: two tests each hold a resource of the machine that
// only one process can hold at a time, as tests that start a server on a
// fixed port do (go-kit's NATS tests all listen on 4222). go test runs them
// one after the other; Period's -p runs their processes at once, so one
// fails. That failure must not be reported, and the test must still be
// explored: in one process, alone in the directory (one process per
// schedule would not help: no earlier run left state behind).
package fixedport

import (
	"net"
	"os/exec"
	"testing"
)

// runs counts the schedules of this process: the first one holds the port
// long enough for the other test's process to start and find it taken.
var runs int

func holdPort(t *testing.T) {
	runs++
	l, err := net.Listen("tcp", "127.0.0.1:47213")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	defer l.Close()
	if runs == 1 {
		// A real wait (a child process), not a virtual sleep.
		if err := exec.Command("sleep", "3").Run(); err != nil {
			t.Skip("no sleep command:", err)
		}
	}
	done := make(chan bool)
	go func() { done <- true }()
	<-done
}

func TestServerA(t *testing.T) { holdPort(t) }

func TestServerB(t *testing.T) { holdPort(t) }
