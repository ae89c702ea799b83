// A goroutine that waits a long time in code Period does not control (here a
// child process; in real suites a dependency's mock clock or the network):
// Period cannot tell whether it would ever come back, so the schedule is
// abandoned with a note, never reported as a hang.
package outside

import (
	"os/exec"
	"testing"
)

func TestWaitsOutside(t *testing.T) {
	done := make(chan error)
	go func() { done <- exec.Command("sleep", "8").Run() }()
	if err := <-done; err != nil {
		t.Skip("no sleep command:", err)
	}
}
