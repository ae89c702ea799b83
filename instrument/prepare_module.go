package instrument

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"

	period "github.com/period-dev/period"
	"golang.org/x/tools/go/packages"
)

// runtimeGoVersion is the go line of the extracted runtime module. It is old
// on purpose: the runtime's files say //go:build go1.21, which sets their
// language version, so modules declaring any go version can require it.
const runtimeGoVersion = "1.13"

// extractRuntime writes Period's runtime sources (embedded in the period
// command) to WorkDir/periodrt as a module of their own, once per Prepare.
func (p *preparer) extractRuntime() (string, error) {
	if p.rtDir != "" {
		return p.rtDir, nil
	}
	dir := filepath.Join(p.work, "periodrt")
	// Start afresh so that files removed from the runtime do not linger.
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	err := period.RuntimeFiles(func(name string, data []byte) error {
		return writeFile(filepath.Join(dir, filepath.FromSlash(name)), data)
	})
	if err != nil {
		return "", fmt.Errorf("extracting the runtime: %v", err)
	}
	gomod := fmt.Sprintf("module %s\n\ngo %s\n", runtimeModule, runtimeGoVersion)
	if err := writeFile(filepath.Join(dir, "go.mod"), []byte(gomod)); err != nil {
		return "", err
	}
	p.rtDir = dir
	return dir, nil
}

// goModOverlay writes a copy of the module's go.mod that requires Period's
// runtime and replaces it with the extracted directory. A directory
// replacement needs no go.sum entry.
func (p *preparer) goModOverlay(mod *packages.Module) (string, error) {
	if path, ok := p.goMods[mod.Dir]; ok {
		return path, nil
	}
	if mod.GoMod == "" {
		return "", fmt.Errorf("module %s has no go.mod", mod.Path)
	}
	rtDir, err := p.extractRuntime()
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(mod.GoMod)
	if err != nil {
		return "", err
	}
	out := filepath.Join(p.work, "gomod", url.PathEscape(mod.Path), "go.mod")
	if err := writeFile(out, data); err != nil {
		return "", err
	}
	cmd := exec.Command("go", "mod", "edit",
		"-require="+runtimeModule+"@"+runtimeVersion,
		"-replace="+runtimeModule+"="+rtDir,
		out)
	cmd.Dir = filepath.Dir(out)
	var buf bytes.Buffer
	cmd.Stderr = &buf
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("editing a copy of %s: %v: %s", mod.GoMod, err, buf.String())
	}
	p.goMods[mod.Dir] = out
	return out, nil
}
