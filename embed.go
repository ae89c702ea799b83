// Package period holds the sources of Period's runtime so that the period
// command can hand them to test builds of modules other than its own.
package period

import (
	"embed"
	"io/fs"
	"path"
	"strings"
)

// runtimeFS holds the packages that instrumented code imports. Whole
// directories are embedded (so new files and subpackages come along without
// touching this list); RuntimeFiles filters out tests and test data. Add a
// directory here when rt starts importing another package of this module.
//
//go:embed rt strategy trace
var runtimeFS embed.FS

// RuntimeFiles calls fn for every file a build of the runtime needs: the
// non-test .go, .s and .h files under the embedded directories, with paths
// relative to the module root, in lexical order.
func RuntimeFiles(fn func(name string, data []byte) error) error {
	return fs.WalkDir(runtimeFS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return fs.SkipDir
			}
			return nil
		}
		if !isRuntimeSource(name) {
			return nil
		}
		data, err := runtimeFS.ReadFile(name)
		if err != nil {
			return err
		}
		return fn(name, data)
	})
}

func isRuntimeSource(name string) bool {
	if strings.HasSuffix(name, "_test.go") {
		return false
	}
	switch path.Ext(name) {
	case ".go", ".s", ".h":
		return true
	}
	return false
}
