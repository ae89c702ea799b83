package report

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/period-dev/period/trace"
)

// The text report fits a screen: the cause first (the bug's message, with
// long goroutine lists grouped), then the interleaving of only the
// goroutines involved as a table with one column per goroutine, and the
// full step list only with -v.

// maxRows bounds the interleaving table without -v; the rows closest to the
// failure are kept.
const maxRows = 40

// maxColumns bounds the goroutines shown side by side; the others' steps
// are folded into one row per run.
const maxColumns = 5

var goroutineLine = regexp.MustCompile(`^(\s*)goroutine g(\d+(?:\.\d+)*) (.*)$`)

// groupGoroutines folds message lines that say the same thing of several
// goroutines ("goroutine g0.3 blocked on lock at x.go:9 ...") into one line
// per distinct text, naming the goroutines as a range when they are many.
func groupGoroutines(lines []string) []string {
	type group struct {
		indent string
		paths  []string
		at     int
	}
	groups := map[string]*group{}
	var out []string
	for _, l := range lines {
		m := goroutineLine.FindStringSubmatch(l)
		if m == nil {
			out = append(out, l)
			continue
		}
		if g := groups[m[3]]; g != nil {
			g.paths = append(g.paths, m[2])
			continue
		}
		groups[m[3]] = &group{indent: m[1], paths: []string{m[2]}, at: len(out)}
		out = append(out, "") // filled below
	}
	for rest, g := range groups {
		if len(g.paths) <= 2 {
			var ls []string
			for _, p := range g.paths {
				ls = append(ls, fmt.Sprintf("%sgoroutine g%s %s", g.indent, p, rest))
			}
			out[g.at] = strings.Join(ls, "\n")
			continue
		}
		out[g.at] = fmt.Sprintf("%s%d goroutines %s %s", g.indent, len(g.paths), pathRange(g.paths), rest)
	}
	return strings.Split(strings.Join(out, "\n"), "\n")
}

// pathRange names many goroutines briefly: g0.1..g0.240 when they are
// consecutive children of one parent, else the first two and the last.
func pathRange(paths []string) string {
	ps := append([]string(nil), paths...)
	sort.Slice(ps, func(i, j int) bool { return trace.PathLess(ps[i], ps[j]) })
	consecutive := true
	for i := 1; i < len(ps) && consecutive; i++ {
		consecutive = nextSibling(ps[i-1]) == ps[i]
	}
	if consecutive {
		return "g" + ps[0] + "..g" + ps[len(ps)-1]
	}
	return "g" + ps[0] + ", g" + ps[1] + ", ..., g" + ps[len(ps)-1]
}

func nextSibling(p string) string {
	i := strings.LastIndexByte(p, '.')
	n, err := strconv.Atoi(p[i+1:])
	if err != nil {
		return ""
	}
	return p[:i+1] + strconv.Itoa(n+1)
}

var tRun = regexp.MustCompile(`t(\d+)(?:,t(\d+))+`)

// compressSchedule shortens a strategy's schedule string: runs of
// consecutive goroutine names (t0,t1,...,t239) become t0..t239, and what is
// still too long is cut.
func compressSchedule(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range tRun.FindAllStringIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		names := strings.Split(s[m[0]:m[1]], ",")
		tail := ""
		if strings.HasPrefix(s[m[1]:], "..") {
			// "t3.." means t3 and the goroutines after it: keep it apart.
			tail = "," + names[len(names)-1]
			names = names[:len(names)-1]
		}
		b.WriteString(compressRun(names) + tail)
		last = m[1]
	}
	b.WriteString(s[last:])
	s = b.String()
	const max = 160
	if len(s) > max {
		s = s[:max] + fmt.Sprintf("... (%d characters more)", len(s)-max)
	}
	return s
}

// compressRun writes runs of four or more consecutive names as a range.
func compressRun(names []string) string {
	var out []string
	for i := 0; i < len(names); {
		j := i
		for j+1 < len(names) && num(names[j+1]) == num(names[j])+1 {
			j++
		}
		if j-i >= 3 {
			out = append(out, names[i]+".."+names[j])
		} else {
			out = append(out, names[i:j+1]...)
		}
		i = j + 1
	}
	return strings.Join(out, ",")
}

func num(t string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(t, "t"))
	return n
}

var gName = regexp.MustCompile(`\bg(\d+(?:\.\d+)*)\b`)

// involved lists the goroutines a bug concerns, most relevant first: those
// its message names (the blocked, the leaked, the racing pair), then the
// ones that took the last steps before it, up to maxColumns.
func involved(msg string, steps []trace.Entry) []string {
	has := map[string]bool{}
	for _, e := range steps {
		has[e.G] = true
	}
	var out []string
	seen := map[string]bool{}
	add := func(g string) {
		if has[g] && !seen[g] && len(out) < maxColumns {
			seen[g] = true
			out = append(out, g)
		}
	}
	for _, m := range gName.FindAllStringSubmatch(msg, -1) {
		add(m[1])
	}
	for i := len(steps) - 1; i >= 0 && len(out) < maxColumns; i-- {
		add(steps[i].G)
	}
	sort.Slice(out, func(i, j int) bool { return trace.PathLess(out[i], out[j]) })
	return out
}

// sources reads the source lines of sites ("dir/file.go:12", relative to
// the module root above dir).
type sources struct {
	root  string
	files map[string][]string
}

func newSources(dir string) *sources {
	s := &sources{files: map[string][]string{}}
	for d := dir; d != "" && d != filepath.Dir(d); d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !st.IsDir() {
			s.root = d
			break
		}
	}
	return s
}

// lines returns the source of site's file and the line number (1-based).
func (s *sources) lines(site string) ([]string, int) {
	i := strings.LastIndexByte(site, ':')
	if s == nil || s.root == "" || i < 0 {
		return nil, 0
	}
	n, err := strconv.Atoi(site[i+1:])
	if err != nil {
		return nil, 0
	}
	file := site[:i]
	lines, ok := s.files[file]
	if !ok {
		data, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(file)))
		if err == nil {
			lines = strings.Split(string(data), "\n")
		}
		s.files[file] = lines
	}
	if n < 1 || n > len(lines) {
		return nil, 0
	}
	return lines, n
}

func (s *sources) line(site string) string {
	lines, n := s.lines(site)
	if n == 0 {
		return ""
	}
	l := strings.Join(strings.Fields(lines[n-1]), " ")
	if len(l) > 60 {
		l = l[:57] + "..."
	}
	return l
}

// snippet is the source around site: context lines either side, numbered,
// the site's line marked.
func (s *sources) snippet(site string, context int) string {
	lines, n := s.lines(site)
	if n == 0 {
		return ""
	}
	var b strings.Builder
	for i := max(1, n-context); i <= min(len(lines), n+context); i++ {
		mark := "  "
		if i == n {
			mark = "> "
		}
		fmt.Fprintf(&b, "%s%5d  %s\n", mark, i, strings.ReplaceAll(lines[i-1], "\t", "    "))
	}
	return b.String()
}

// shortSite drops the directories of a site: the column is narrow.
func shortSite(site string) string {
	return site[strings.LastIndexByte(site, '/')+1:]
}

// Interleaving renders the steps of tr as a table: one column per goroutine
// of cols, one row per step of theirs (repeated identical steps folded into
// one row), the steps of other goroutines folded into one row per run, and
// the source line of each step; steps at the bug's location are starred.
// maxRows > 0 keeps only the last rows.
func Interleaving(tr *trace.Trace, cols []string, maxRows int) string {
	bugAt := tr.Location
	var steps []trace.Entry
	for _, e := range tr.Entries {
		if !e.Choice {
			steps = append(steps, e)
		}
	}
	col := map[string]int{}
	for i, g := range cols {
		col[g] = i
	}
	type row struct {
		first, last int // step numbers, 1-based
		c           int // column, -1: other goroutines, -2: a loop folded
		cell        string
		site        string
		others      map[string]bool
		period, n   int // folded loop: the rows above repeat n more times
	}
	var rows []row
	for i, e := range steps {
		c, ok := col[e.G]
		if !ok {
			if n := len(rows); n > 0 && rows[n-1].c < 0 {
				rows[n-1].last = i + 1
				rows[n-1].others[e.G] = true
				continue
			}
			rows = append(rows, row{first: i + 1, last: i + 1, c: -1, others: map[string]bool{e.G: true}})
			continue
		}
		cell := e.Op
		if e.Site != "" {
			cell += " " + shortSite(e.Site)
		}
		if n := len(rows); n > 0 && rows[n-1].c == c && rows[n-1].cell == cell {
			rows[n-1].last = i + 1
			continue
		}
		rows = append(rows, row{first: i + 1, last: i + 1, c: c, cell: cell, site: e.Site})
	}
	// A loop (a ticker's select, lock, unlock a thousand times) is shown
	// once, then folded into one row.
	same := func(a, b row) bool {
		return a.c >= 0 && a.c == b.c && a.cell == b.cell && a.last-a.first == b.last-b.first
	}
	var folded []row
	for i := 0; i < len(rows); {
		done := false
		for k := 1; k <= 6 && !done; k++ {
			m := 0
			for i+(m+2)*k <= len(rows) {
				ok := true
				for j := 0; j < k && ok; j++ {
					ok = same(rows[i+j], rows[i+(m+1)*k+j])
				}
				if !ok {
					break
				}
				m++
			}
			if m >= 2 {
				folded = append(folded, rows[i:i+k]...)
				folded = append(folded, row{first: rows[i+k].first, last: rows[i+(m+1)*k-1].last, c: -2, period: k, n: m})
				i += (m + 1) * k
				done = true
			}
		}
		if !done {
			folded = append(folded, rows[i])
			i++
		}
	}
	rows = folded
	width := 10
	for i := range rows {
		if r := &rows[i]; r.c >= 0 {
			if r.last > r.first {
				r.cell += fmt.Sprintf(" (x%d)", r.last-r.first+1)
			}
			width = max(width, len(r.cell))
		}
	}
	width = min(width, 30)
	src := newSources(tr.Dir)
	var b strings.Builder
	head := fmt.Sprintf("%6s  ", "step")
	for _, g := range cols {
		head += fmt.Sprintf("%-*s ", width, "g"+g)
	}
	b.WriteString(strings.TrimRight(head, " ") + "\n")
	start := 0
	if maxRows > 0 && len(rows) > maxRows {
		start = len(rows) - maxRows
		fmt.Fprintf(&b, "%6s  (%d earlier rows, steps 1-%d: -v shows them)\n", "...", start, rows[start].first-1)
	}
	for _, r := range rows[start:] {
		num := strconv.Itoa(r.first)
		if r.last > r.first {
			num = fmt.Sprintf("%d-%d", r.first, r.last)
		}
		if bugAt != "" && r.site == bugAt {
			num = "*" + num // the step at the bug's location
		}
		line := fmt.Sprintf("%6s  ", num)
		if r.c == -2 {
			b.WriteString(line + fmt.Sprintf("(the %d row%s above repeat%s %d more times)\n", r.period, plural(r.period), map[bool]string{true: "s", false: ""}[r.period == 1], r.n))
			continue
		}
		if r.c < 0 {
			n := r.last - r.first + 1
			line += fmt.Sprintf("(%d step%s of %d other goroutine%s)", n, plural(n), len(r.others), plural(len(r.others)))
			b.WriteString(line + "\n")
			continue
		}
		cell := clipCell(r.cell, width)
		for i := range cols {
			if i == r.c {
				line += fmt.Sprintf("%-*s ", width, cell)
			} else {
				line += fmt.Sprintf("%-*s ", width, "")
			}
		}
		if s := src.line(r.site); s != "" {
			line += "| " + s
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

// clipCell shortens a cell to width by cutting into the file name, so that
// its line number, the thing to look at, stays.
func clipCell(cell string, width int) string {
	if len(cell) <= width {
		return cell
	}
	if i := strings.LastIndex(cell, ":"); i > 0 && len(cell)-i+2 <= width {
		tail := cell[i:]
		return cell[:width-1-len(tail)] + "~" + tail
	}
	return cell[:width-1] + "~"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
