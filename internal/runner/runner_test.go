package runner

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
)

// The locations the runner makes (a crash's frame, a failed test's log line)
// are module-relative, like every other bug location.
func TestLocationsAreModuleRelative(t *testing.T) {
	_, file, line, _ := runtime.Caller(0)
	out := fmt.Sprintf("fatal error: concurrent map writes\n\ngoroutine 9 [running]:\nexample.com/m.F()\n\t%s:%d +0x1d\n", file, line)
	if got, want := crashLocation([]byte(out)), fmt.Sprintf("internal/runner/runner_test.go:%d", line); got != want {
		t.Errorf("crashLocation = %q, want %q", got, want)
	}
	log := "=== RUN   TestPeriodDriver/TestX/s3\n    runner_test.go:12: x = 1\n--- FAIL: TestPeriodDriver/TestX/s3 (0.00s)\n"
	msgs := parseFailures([]byte(log), filepath.Dir(file))
	f := msgs[failKey{"TestX", 3}]
	if f == nil || f.location != "internal/runner/runner_test.go:12" || f.text[0] != "runner_test.go:12: x = 1" {
		t.Errorf("parseFailures = %+v", f)
	}
	if got := packageLoc(filepath.Dir(file), "nosuch_test.go"); got != "nosuch_test.go" {
		t.Errorf("a file not in the package directory: %q", got)
	}
}
