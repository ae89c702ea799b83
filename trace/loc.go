//go:build go1.21

package trace

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ModuleLoc renders a location "file:line" whose file is an absolute path
// the way key-point sites and every bug Location are written: the file
// relative to the root of the module that holds it (the nearest directory
// up with a go.mod), with slashes, as in "reorder10/reorder10.go:22". A file
// in no module keeps its last two path elements; a relative file is
// returned unchanged.
func ModuleLoc(loc string) string {
	file, line := loc, ""
	if i := strings.LastIndexByte(loc, ':'); i > 0 && isNumber(loc[i+1:]) {
		file, line = loc[:i], loc[i:]
	}
	if !filepath.IsAbs(file) {
		return loc
	}
	if root := moduleRoot(filepath.Dir(file)); root != "" {
		if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel) + line
		}
	}
	parts := strings.Split(filepath.ToSlash(file), "/")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, "/") + line
}

var moduleRoots sync.Map // directory -> the root of its module ("": none)

// moduleRoot is the nearest directory at or above dir with a go.mod file.
func moduleRoot(dir string) string {
	if r, ok := moduleRoots.Load(dir); ok {
		return r.(string)
	}
	root := ""
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !st.IsDir() {
			root = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	moduleRoots.Store(dir, root)
	return root
}

func isNumber(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
