package instrument

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	period "github.com/period-dev/period"
	"golang.org/x/tools/go/packages"
)

// runtimeGoVersion is the go line of the extracted runtime module. It is old
// on purpose: the runtime's files say //go:build go1.21, which sets their
// language version, so modules declaring any go version can require it.
const runtimeGoVersion = "1.13"

// virtualRuntime is where test builds see the runtime module: a tree of
// empty directories into which the overlay maps the extracted files. The
// build cache keys a package on its directory, so a fixed place lets the
// runtime compile once rather than once per work directory (about a second
// each time).
var virtualRuntime = filepath.Join(os.TempDir(), "period-virtual-runtime")

// extractRuntime writes Period's runtime sources (embedded in the period
// command) to WorkDir/periodrt as a module of their own, once per Prepare,
// and returns the directory the go.mod replacement should name, with the
// overlay entries that make it visible there.
func (p *preparer) extractRuntime() (string, map[string]string, error) {
	if p.rtDir != "" {
		return p.rtDir, p.rtOverlay, nil
	}
	dir := filepath.Join(p.work, "periodrt")
	// Start afresh so that files removed from the runtime do not linger.
	if err := os.RemoveAll(dir); err != nil {
		return "", nil, err
	}
	files := map[string][]byte{
		"go.mod": []byte(fmt.Sprintf("module %s\n\ngo %s\n", runtimeModule, runtimeGoVersion)),
	}
	err := period.RuntimeFiles(func(name string, data []byte) error {
		files[name] = data
		return nil
	})
	if err != nil {
		return "", nil, fmt.Errorf("extracting the runtime: %v", err)
	}
	virtual := virtualRuntime
	if hasFiles(virtual) {
		virtual = "" // not ours: use the extracted files directly
	}
	overlay := map[string]string{}
	for name, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := writeFile(path, data); err != nil {
			return "", nil, err
		}
		if virtual == "" {
			continue
		}
		vpath := filepath.Join(virtual, filepath.FromSlash(name))
		overlay[vpath] = path
		// The assembler runs in the package directory: it must exist,
		// empty (the overlay supplies the files).
		if err := os.MkdirAll(filepath.Dir(vpath), 0o755); err != nil {
			return "", nil, err
		}
	}
	p.rtDir, p.rtOverlay = dir, overlay
	if virtual != "" {
		p.rtDir = virtual
	}
	return p.rtDir, p.rtOverlay, nil
}

// hasFiles reports whether anything but directories is under dir.
func hasFiles(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// goModOverlay writes a copy of the module's go.mod that requires Period's
// runtime and replaces it with the extracted directory, and replaces each
// module of replaces (instrumented dependencies from the module cache) with
// its link. A directory replacement needs no go.sum entry.
func (p *preparer) goModOverlay(mod *packages.Module, replaces map[string]string) (string, error) {
	key := mod.Dir
	for _, m := range keysOf(replaces) {
		key += "\n" + m
	}
	if path, ok := p.goMods[key]; ok {
		return path, nil
	}
	if mod.GoMod == "" {
		return "", fmt.Errorf("module %s has no go.mod", mod.Path)
	}
	rtDir, _, err := p.extractRuntime()
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(mod.GoMod)
	if err != nil {
		return "", err
	}
	out := filepath.Join(p.work, "gomod", url.PathEscape(mod.Path), strconv.Itoa(len(p.goMods)), "go.mod")
	if err := writeFile(out, data); err != nil {
		return "", err
	}
	args := []string{"mod", "edit",
		"-require=" + runtimeModule + "@" + runtimeVersion,
		"-replace=" + runtimeModule + "=" + rtDir}
	for _, m := range keysOf(replaces) {
		args = append(args, "-replace="+m+"="+replaces[m])
	}
	cmd := exec.Command("go", append(args, out)...)
	cmd.Dir = filepath.Dir(out)
	var buf bytes.Buffer
	cmd.Stderr = &buf
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("editing a copy of %s: %v: %s", mod.GoMod, err, buf.String())
	}
	p.goMods[key] = out
	return out, nil
}
