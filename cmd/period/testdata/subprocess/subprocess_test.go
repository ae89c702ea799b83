// The subprocess idiom: a test re-executes its own binary with
// -test.run=t.Name() and an environment variable, and checks how the child
// ended. Under Period, t.Name() is what go test gives, and the child runs the
// user's test natively.
package subprocess

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestCrasher(t *testing.T) {
	if os.Getenv("BE_CRASHER") == "1" {
		println("crashing on purpose")
		os.Exit(3)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$")
	cmd.Env = append(os.Environ(), "BE_CRASHER=1")
	out, err := cmd.CombinedOutput()
	if e, ok := err.(*exec.ExitError); !ok || e.ExitCode() != 3 {
		t.Fatalf("child: err %v, want exit status 3; output:\n%s", err, out)
	}
	if !strings.Contains(string(out), "crashing on purpose") {
		t.Fatalf("child did not run the test: %s", out)
	}
}

func TestNames(t *testing.T) {
	if t.Name() != "TestNames" {
		t.Errorf("t.Name() = %q", t.Name())
	}
	t.Run("sub", func(t *testing.T) {
		var tb testing.TB = t
		if tb.Name() != "TestNames/sub" {
			t.Errorf("subtest name %q", tb.Name())
		}
	})
}
