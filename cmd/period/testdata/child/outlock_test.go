package child

import (
	"os/exec"
	"sync"
	"testing"
	"time"
)

type lockedBuf struct {
	mu sync.Mutex
	b  []byte
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	time.Sleep(50 * time.Millisecond) // os/exec's goroutine, outside control: a real sleep, the lock held
	l.b = append(l.b, p...)
	l.mu.Unlock()
	return len(p), nil
}

func (l *lockedBuf) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.b)
}

// A goroutine outside control (os/exec's, copying a child's output) holds
// a lock of the program's for 50 ms while the test polls under it and
// another goroutine waits for the child, which runs on: the test sees the
// output then, not when the child ends (ginkgo's watch specs over gexec).
func TestLockHeldOutsideBesideChild(t *testing.T) {
	buf := &lockedBuf{}
	cmd := exec.Command("sh", "-c", "echo hello; exec sleep 20")
	cmd.Stdout = buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- cmd.Wait() }()
	start := time.Now()
	timeout := time.After(10 * time.Minute)
	for buf.len() == 0 {
		select {
		case <-timeout:
			t.Fatal("no output")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the output, written 50 ms after the start, was seen after %v", d)
	}
	cmd.Process.Kill()
	<-done
}
