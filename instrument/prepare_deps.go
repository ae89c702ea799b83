package instrument

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// depSelector decides which packages of modules other than the main one
// are instrumented (PrepareOptions.Instrument and Uninstrumented).
type depSelector struct {
	none             bool     // "module": the main module only
	include, exclude []string // import path patterns; no include: all
}

func newDepSelector(instrument string, uninstrumented []string) (depSelector, error) {
	var d depSelector
	switch instrument {
	case "", "all":
	case "module":
		d.none = true
	default:
		for _, p := range strings.Split(instrument, ",") {
			if p = strings.TrimSpace(p); p != "" {
				d.include = append(d.include, p)
			}
		}
		if len(d.include) == 0 {
			return d, fmt.Errorf("-instrument=%q: want all, module or import path patterns", instrument)
		}
	}
	for _, p := range uninstrumented {
		if p = strings.TrimSpace(p); p != "" {
			d.exclude = append(d.exclude, p)
		}
	}
	return d, nil
}

// selects reports whether the dependency q is instrumented. Vendored
// packages are not (the build runs in module mode, where the vendor
// directory's files are not the ones compiled), nor are packages with
// assembly (their Go and assembly halves share unexported state that the
// rewrite must not change); cgo packages are left alone later, with a note.
func (d depSelector) selects(q *packages.Package) bool {
	if d.none || q.Module == nil || q.Module.Dir == "" || !strings.HasPrefix(q.Dir, q.Module.Dir) {
		return false
	}
	for _, f := range q.OtherFiles {
		if strings.HasSuffix(f, ".s") || strings.HasSuffix(f, ".S") {
			return false
		}
	}
	for _, p := range d.exclude {
		if matchPath(p, q.PkgPath) {
			return false
		}
	}
	if len(d.include) == 0 {
		return !hugeGenerated(q)
	}
	for _, p := range d.include {
		if matchPath(p, q.PkgPath) {
			return true
		}
	}
	return false
}

// hugeGeneratedBytes: a dependency package whose generated Go source is
// larger than this is left uninstrumented unless -instrument names it.
// Such packages are machine translations and the largest generated API
// clients (modernc.org's SQLite, 8 MB for one platform): instrumenting
// them took minutes of the first build (cschleiden/go-workflows: about
// 170 s against 35 s for go test's whole build) and hooks every access of
// code whose own concurrency is rarely the program's.
const hugeGeneratedBytes = 2 << 20

// hugeGenerated reports whether q's Go files marked as generated ("Code
// generated ... DO NOT EDIT.") add up to more than hugeGeneratedBytes.
func hugeGenerated(q *packages.Package) bool {
	var total int64
	for _, f := range q.GoFiles {
		st, err := os.Stat(f)
		if err != nil || st.Size() < 64<<10 {
			continue // only big files are read: an SDK has thousands of small ones
		}
		if generatedFile(f) {
			total += st.Size()
		}
	}
	return total > hugeGeneratedBytes
}

// generatedFile reports whether the Go file f carries the generated-code
// comment Go defines (go help generate) before its package clause.
func generatedFile(f string) bool {
	fh, err := os.Open(f)
	if err != nil {
		return false
	}
	defer fh.Close()
	buf := make([]byte, 4096)
	n, _ := io.ReadFull(fh, buf)
	for _, line := range strings.Split(string(buf[:n]), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			return false
		}
		if strings.HasPrefix(line, "// Code generated ") && strings.HasSuffix(line, " DO NOT EDIT.") {
			return true
		}
	}
	return false
}

// matchPath matches an import path against a pattern as go list does for
// "path" and "path/...".
func matchPath(pattern, path string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == prefix || strings.HasPrefix(path, prefix+"/")
	}
	return pattern == path
}

// depSitePrefix names a dependency's key points by import path of their
// directory (golang.org/x/sync/errgroup/errgroup.go:78): a location relative
// to the main module would not say which module the file belongs to.
func depSitePrefix(q *packages.Package) string {
	rel, err := filepath.Rel(q.Module.Dir, q.Dir)
	if err != nil || rel == "." {
		return q.Module.Path + "/"
	}
	return q.Module.Path + "/" + filepath.ToSlash(rel) + "/"
}

// depOverlayPath is the name under which the overlay replaces the
// dependency file orig. The go command refuses to overlay files in the
// module cache, so a module from there is replaced (in the go.mod overlay)
// by a link to its directory, and its files are overlaid under the link.
func (p *preparer) depOverlayPath(q *packages.Package, orig string, tp *TestPackage) (string, error) {
	if p.modCache == "" || !strings.HasPrefix(orig, p.modCache+string(filepath.Separator)) {
		return orig, nil
	}
	// A versioned replacement overrides one of the user's for the same
	// version, and one of another module path too (Path and Version are the
	// required module's, Dir the replacement's).
	mod := q.Module
	key := mod.Path
	if mod.Version != "" {
		key += "@" + mod.Version
	}
	link, err := moduleLink(key, mod.Dir)
	if err != nil {
		return "", err
	}
	if tp.replaces == nil {
		tp.replaces = map[string]string{}
	}
	tp.replaces[key] = link
	// A module published without a go.mod gets one from the go command;
	// a directory replacement needs it on disk: the overlay supplies it.
	if _, err := os.Stat(filepath.Join(mod.Dir, "go.mod")); err != nil {
		data, err := os.ReadFile(mod.GoMod)
		if err != nil || len(data) == 0 {
			data = []byte("module " + mod.Path + "\n")
		}
		synth := filepath.Join(p.work, "gomod", url.PathEscape(key), "go.mod")
		if err := writeFile(synth, data); err != nil {
			return "", err
		}
		if tp.linkFiles == nil {
			tp.linkFiles = map[string]string{}
		}
		tp.linkFiles[filepath.Join(link, "go.mod")] = synth
	}
	rel, err := filepath.Rel(mod.Dir, orig)
	if err != nil {
		return "", err
	}
	return filepath.Join(link, rel), nil
}

// linkRoot holds the links standing for module cache directories. It is
// the same place in every run: the build cache keys a compiled package on
// its directory, so a fixed link lets an unchanged instrumented dependency
// compile once, not once per period test (as virtualRuntime does for the
// runtime).
var linkRoot = filepath.Join(os.TempDir(), "period-module-links")

// moduleLink returns the link to dir for module key, making it if needed.
// Concurrent period processes may make the same link: whoever loses the
// race finds it made.
func moduleLink(key, dir string) (string, error) {
	sum := sha256.Sum256([]byte(dir))
	link := filepath.Join(linkRoot, url.PathEscape(key)+"-"+hex.EncodeToString(sum[:6]))
	if target, err := os.Readlink(link); err == nil && target == dir {
		return link, nil
	}
	if err := os.MkdirAll(linkRoot, 0o755); err != nil {
		return "", err
	}
	tmp := fmt.Sprintf("%s.%d", link, os.Getpid())
	os.Remove(tmp)
	if err := os.Symlink(dir, tmp); err != nil {
		return "", fmt.Errorf("linking %s: %v", dir, err)
	}
	if err := os.Rename(tmp, link); err != nil { // atomic: never a half-made link
		os.Remove(tmp)
		return "", fmt.Errorf("linking %s: %v", dir, err)
	}
	return link, nil
}

// goModCache returns GOMODCACHE.
func goModCache(dir string) string {
	cmd := exec.Command("go", "env", "GOMODCACHE")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
