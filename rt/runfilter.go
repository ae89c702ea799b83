//go:build go1.21

package rt

import (
	"regexp"
	"strings"
	"testing"
)

// RunFilter is a -run pattern read as go test reads it: alternatives
// separated by a '|' outside brackets and parentheses, each a list of
// regexps, one per level of test names separated by a '/' ("TestX/ok" runs
// TestX's subtests whose names contain "ok"). The driver selects the
// top-level tests with the first level; a controlled run skips the
// subtests the others reject (TRun).
type RunFilter [][]*regexp.Regexp

// CompileRun compiles pattern; the empty pattern gives nil, which matches
// every name.
func CompileRun(pattern string) (RunFilter, error) {
	if pattern == "" {
		return nil, nil
	}
	var f RunFilter
	for _, alt := range splitOutside(pattern, '|') {
		var levels []*regexp.Regexp
		for _, l := range splitOutside(alt, '/') {
			re, err := regexp.Compile(l)
			if err != nil {
				return nil, err
			}
			levels = append(levels, re)
		}
		f = append(f, levels)
	}
	return f, nil
}

// Match tells whether the test named by path (its levels: "TestX", "sub")
// is selected: every level it has matches in one alternative.
func (f RunFilter) Match(path ...string) bool {
	if f == nil {
		return true
	}
	for _, levels := range f {
		ok := true
		for i, name := range path {
			if i < len(levels) && !levels[i].MatchString(name) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// HasSubtests tells whether f selects subtests too (a level after the
// first in some alternative).
func (f RunFilter) HasSubtests() bool {
	for _, levels := range f {
		if len(levels) > 1 {
			return true
		}
	}
	return false
}

// splitOutside splits s at each sep that is not escaped by a backslash nor
// inside brackets or parentheses; with sep '|', an alternative at top level
// that is a single level ("A|B") stays one regexp, which means the same.
func splitOutside(s string, sep byte) []string {
	var parts []string
	brackets, parens, from := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case c == '[':
			brackets++
		case c == ']' && brackets > 0:
			brackets--
		case c == '(' && brackets == 0:
			parens++
		case c == ')' && brackets == 0 && parens > 0:
			parens--
		case c == sep && brackets == 0 && parens == 0:
			parts = append(parts, s[from:i])
			from = i + 1
		}
	}
	parts = append(parts, s[from:])
	if sep == '|' && !strings.Contains(s, "/") {
		return []string{s} // no levels: the regexp as it is
	}
	return parts
}

// subtests is the user's -run pattern (Config.Selection) while Explore
// runs, when it selects subtests: TRun skips those it rejects, as package
// testing does under go test -run 'TestX/sub'.
var subtests RunFilter

// skipSubtest tells whether t.Run(name) under t is one that the user's -run
// leaves out.
func skipSubtest(t *testing.T, name string) bool {
	if subtests == nil {
		return false
	}
	return !subtests.Match(append(strings.Split(TName(t), "/"), subtestName(name))...)
}

// testBase is a top-level test's name as -run sees it: "Test#01" (the
// external test package's Test, instrument.externalNames) is "Test".
func testBase(name string) string {
	base, _, _ := strings.Cut(name, "#")
	return base
}

// subtestName is name as package testing names a subtest for matching:
// spaces become underscores.
func subtestName(name string) string {
	return strings.ReplaceAll(name, " ", "_")
}
