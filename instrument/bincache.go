package instrument

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The binary cache keeps each package's instrumented test binary between
// runs, in a slot of its own (import path, directory, build flags). Most of
// a warm build is the link: go test -c skips it when the binary already at
// its -o path carries the build ID of the inputs, so building into a stable
// slot makes an unchanged package start as fast as go test starts. Go's own
// build ID check decides whether the slot is up to date; Period only adds
// a checksum so that a damaged binary is rebuilt, never run, and a lock so
// that concurrent period processes never see a half-written one.

// BinCacheEnv names the environment variable that sets the cache directory
// ("off" disables it), as GOCACHE does for go.
const BinCacheEnv = "PERIODCACHE"

// binCacheMaxAge is how long a slot no run used is kept.
const binCacheMaxAge = 5 * 24 * time.Hour

// DefaultBinCache returns the binary cache directory: $PERIODCACHE, else
// period/ under the user cache directory. "" (and no error) means off.
func DefaultBinCache() (string, error) {
	if !haveFileLocks {
		return "", nil // concurrent processes could not share it safely
	}
	if d := os.Getenv(BinCacheEnv); d != "" {
		if d == "off" {
			return "", nil
		}
		if !filepath.IsAbs(d) {
			return "", fmt.Errorf("%s=%s is not an absolute path", BinCacheEnv, d)
		}
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", nil // no home directory: build without a cache
	}
	return filepath.Join(d, "period"), nil
}

// CleanBinCache removes the cache directory dir.
func CleanBinCache(dir string) error {
	if dir == "" {
		return nil
	}
	return os.RemoveAll(dir)
}

// buildCached builds p into its cache slot and copies the binary to out.
func (p *TestPackage) buildCached(ctx context.Context, out string) error {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s", p.ImportPath, p.Dir, strings.Join(p.buildFlags, "\x00"))
	slot := filepath.Join(p.binCache, "bin", hex.EncodeToString(h.Sum(nil))[:32])
	if err := os.MkdirAll(slot, 0o755); err != nil {
		return p.link(ctx, out) // an unwritable cache is no reason to fail
	}
	unlock, err := lockFile(filepath.Join(slot, "lock"))
	if err != nil {
		return p.link(ctx, out)
	}
	defer unlock()
	bin, sumFile := filepath.Join(slot, "test"), filepath.Join(slot, "sum")
	if _, err := os.Stat(bin); err == nil {
		want, _ := os.ReadFile(sumFile)
		if got, err := fileSum(bin); err != nil || got != strings.TrimSpace(string(want)) {
			// Damaged, or left by a run that died before writing its sum.
			os.Remove(bin)
		}
	}
	os.Remove(sumFile)
	if err := p.link(ctx, bin); err != nil {
		return err
	}
	sum, err := copyFile(bin, out)
	if err != nil {
		return err
	}
	if err := os.WriteFile(sumFile, []byte(sum+"\n"), 0o644); err != nil {
		return nil // the binary at out is good; the slot is rebuilt next time
	}
	trimBinCache(p.binCache, slot)
	return nil
}

// fileSum returns the hex SHA-256 of the file name.
func fileSum(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// copyFile copies src to an executable dst and returns the hex SHA-256 of
// what it copied. A copy, not a link: the next go test -c may rewrite the
// slot's file in place while this binary runs.
func copyFile(src, dst string) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer in.Close()
	os.Remove(dst)
	outf, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(outf, h), in); err != nil {
		outf.Close()
		return "", err
	}
	if err := outf.Close(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// trimBinCache removes, at most once a day, the slots no run has used for
// binCacheMaxAge (a slot's sum is rewritten by every run that uses it).
// Slots locked by another process are left alone.
func trimBinCache(dir, except string) {
	stamp := filepath.Join(dir, "trim.txt")
	if fi, err := os.Stat(stamp); err == nil && time.Since(fi.ModTime()) < 24*time.Hour {
		return
	}
	if err := os.WriteFile(stamp, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644); err != nil {
		return
	}
	slots, _ := os.ReadDir(filepath.Join(dir, "bin"))
	for _, e := range slots {
		slot := filepath.Join(dir, "bin", e.Name())
		if slot == except {
			continue
		}
		fi, err := os.Stat(filepath.Join(slot, "sum"))
		if err == nil && time.Since(fi.ModTime()) < binCacheMaxAge {
			continue
		}
		if unlock, err := tryLockFile(filepath.Join(slot, "lock")); err == nil {
			os.RemoveAll(slot)
			unlock()
		}
	}
}

// errNoLock: this system has no file locks, so the cache is not used.
var errNoLock = errors.New("file locks not supported")
