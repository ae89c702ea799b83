// Child processes run in real time: a goroutine that waits for one is
// waited for, and the clock keeps to real time meanwhile, as under go test
// (ginkgo's suite timeout fired while gexec.Build ran go build).
package child

import (
	"os/exec"
	"testing"
	"time"
)

func sleeper(t *testing.T, secs string) *exec.Cmd {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip(err)
	}
	return exec.Command("sleep", secs)
}

func TestChildBesideTimer(t *testing.T) {
	cmd := sleeper(t, "1.5")
	done := make(chan error)
	go func() { done <- cmd.Run() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("timed out: a minute passed while the child slept 1.5 s")
	}
}

func TestChildOutputBesideTimer(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip(err)
	}
	done := make(chan string)
	go func() {
		out, _ := exec.Command("sh", "-c", "sleep 1.5; echo hi").CombinedOutput()
		done <- string(out)
	}()
	timer := time.NewTimer(time.Minute)
	defer timer.Stop()
	select {
	case out := <-done:
		if out != "hi\n" {
			t.Fatalf("output %q", out)
		}
	case <-timer.C:
		t.Fatal("timed out: a minute passed while the child slept 1.5 s")
	}
}

// The other way round: a child that would run for a minute is killed when
// the test's 200 ms are up, as on a machine.
func TestKillChildAtTimeout(t *testing.T) {
	cmd := sleeper(t, "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	done := make(chan error)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		t.Fatal("the child ended before it was killed")
	case <-time.After(200 * time.Millisecond):
		cmd.Process.Kill()
		<-done
	}
	if d := time.Since(start); d < 200*time.Millisecond || d > 30*time.Second {
		t.Fatalf("killed after %v", d)
	}
}

// A test that sleeps so that its children see time pass (goose names
// migrations by the second): the children's clock is the real one.
func TestChildrenSeeASleepPass(t *testing.T) {
	if _, err := exec.LookPath("date"); err != nil {
		t.Skip(err)
	}
	stamp := func() string {
		out, err := exec.Command("date", "+%s").Output()
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	first := stamp()
	time.Sleep(time.Second)
	if second := stamp(); second == first {
		t.Fatalf("both children saw second %s", first)
	}
}
