//go:build go1.21

package trace

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxSources bounds the source lines a replay file keeps.
const maxSources = 1000

// RecordSources keeps the text of the line of every site the steps reach,
// read from the module that holds t.Dir: once the source is edited, a
// replay that no longer matches can show what the line said when the
// schedule was recorded.
func (t *Trace) RecordSources() {
	files := map[string][]string{}
	for _, e := range t.Entries {
		if e.Choice || e.Site == "" {
			continue
		}
		if _, ok := t.Sources[e.Site]; ok {
			continue
		}
		if len(t.Sources) >= maxSources {
			return
		}
		if text := sourceLine(t.Dir, e.Site, files); text != "" {
			if t.Sources == nil {
				t.Sources = map[string]string{}
			}
			t.Sources[e.Site] = text
		}
	}
}

// SourceLine is the current text of the line of site (module-relative
// "file:line"), read from the module that holds dir; "" if unknown.
func SourceLine(dir, site string) string {
	return sourceLine(dir, site, map[string][]string{})
}

func sourceLine(dir, site string, files map[string][]string) string {
	i := strings.LastIndexByte(site, ':')
	root := moduleRoot(dir)
	if i < 0 || root == "" {
		return ""
	}
	n, err := strconv.Atoi(site[i+1:])
	if err != nil {
		return ""
	}
	file := site[:i]
	lines, ok := files[file]
	if !ok {
		if data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file))); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		files[file] = lines
	}
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.Join(strings.Fields(lines[n-1]), " ")
}
