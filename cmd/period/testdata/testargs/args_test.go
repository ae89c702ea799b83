// The test binary's own flags and arguments, given after -args as to
// go test.
package testargs

import (
	"flag"
	"strings"
	"testing"
)

var fail = flag.Bool("fail", false, "fail on purpose")

func TestFlagged(t *testing.T) {
	if *fail {
		t.Errorf("failed as asked, with %s", strings.Join(flag.Args(), ","))
	}
}
