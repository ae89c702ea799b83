// A goroutine that waits a long time in code Period does not control (here
// a read of a pipe that another process writes only 8 s later; in real
// suites a dependency's mock clock or the network): Period cannot tell
// whether it would ever come back, so the schedule is abandoned with a
// note, never reported as a hang. (A wait for a child process to end,
// cmd.Run, is waited for as go test does.)
package outside

import (
	"io"
	"os"
	"os/exec"
	"testing"
)

func TestWaitsOutside(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command("sh", "-c", "sleep 8; echo x")
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		t.Skip("no sh:", err)
	}
	w.Close()
	done := make(chan error)
	go func() {
		_, err := io.ReadAll(r)
		done <- err
	}()
	if err := <-done; err != nil {
		t.Error(err)
	}
	cmd.Wait()
}
