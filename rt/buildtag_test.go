package rt

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// rt is compiled into the user's module, whose go.mod may say go 1.13: every
// file of it must raise its own language version with a build constraint
// (generics, min and max need 1.21), or a module of an old go line fails to
// build once instrumented.
func TestEveryFileRaisesItsLanguageVersion(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	tag := regexp.MustCompile(`^//go:build go1\.(\d+)`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := tag.FindSubmatch(b)
		if m == nil {
			t.Errorf("%s: does not start with //go:build go1.21 (or later)", f)
			continue
		}
		if n, _ := strconv.Atoi(string(m[1])); n < 21 {
			t.Errorf("%s: go1.%d is older than go1.21", f, n)
		}
	}
}
