// Package orphanout starts a process that outlives the test and keeps the
// test process's standard output, as air's runner tests leave the program
// they built running.
package orphanout

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

func TestLeavesAChildWithOurOutput(t *testing.T) {
	cmd := exec.Command("sleep", "3600")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	if f := os.Getenv("ORPHAN_PIDFILE"); f != "" { // the e2e test ends it
		pids, _ := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		fmt.Fprintln(pids, cmd.Process.Pid)
		pids.Close()
	}
}
