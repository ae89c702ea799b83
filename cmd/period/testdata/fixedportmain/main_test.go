// Package fixedportmain: TestMain starts the package's server on a fixed
// port for all its tests and exits when it cannot (grpc-gateway's
// integration tests listen on 9090 and 8088). go test runs one process per
// package; Period's -p runs a process per test at once, and all but one
// exited before their test started. Such a test is explored again alone
// in the package directory, as go test would run it.
package fixedportmain

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
)

func TestMain(m *testing.M) {
	l, err := net.Listen("tcp", "127.0.0.1:47214")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot run the server:", err)
		os.Exit(1)
	}
	code := m.Run()
	// A real wait (a child process) with the port held: the other
	// processes of the package start meanwhile.
	_ = exec.Command("sleep", "2").Run()
	l.Close()
	os.Exit(code)
}

func TestA(t *testing.T) { handOff() }

func TestB(t *testing.T) { handOff() }

func TestC(t *testing.T) { handOff() }

func handOff() {
	done := make(chan bool)
	go func() { done <- true }()
	<-done
}
