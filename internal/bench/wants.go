package bench

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	wantLine = regexp.MustCompile(`^// period:want (\w+)\s*$`)
	testFunc = regexp.MustCompile(`^func (Test\w+)\(`)
)

// Wants reads the `// period:want KIND` annotations of the test files in
// dir: test function name -> wanted bug kind ("none": a correct test). The
// line belongs to the test function its comment block documents.
func Wants(dir string) (map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	w := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		pending := ""
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			line := sc.Text()
			if m := wantLine.FindStringSubmatch(line); m != nil {
				pending = m[1]
				continue
			}
			if m := testFunc.FindStringSubmatch(line); m != nil && pending != "" {
				w[m[1]] = pending
			}
			if !strings.HasPrefix(line, "//") {
				pending = ""
			}
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return w, nil
}
