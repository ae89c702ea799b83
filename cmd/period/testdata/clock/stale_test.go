package clock

import (
	"io"
	"os"
	"os/exec"
	"testing"
	"time"
)

// A reader of a pipe whose other end a child process holds for 50 ms comes
// back then. Timers nobody waits on any more (the time.After of earlier
// selects, as in a loop that races each result against a timeout) must not
// carry the clock past the test's one-second timeout while the reader
// waits for real (ginkgo's output interceptor bailed out so).
func TestReaderBesideStaleTimers(t *testing.T) {
	for i := 1; i <= 100; i++ {
		select {
		case <-time.After(time.Duration(i) * 5 * time.Millisecond):
		default:
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sleep", "0.05")
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	w.Close()
	done := make(chan int)
	go func() {
		b, _ := io.ReadAll(r)
		r.Close()
		done <- len(b)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Error("the reader did not see the pipe's end within a second")
	}
	cmd.Wait()
}
