package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/period-dev/period/trace"
)

// page is what a parse of the timeline page finds.
type page struct {
	lanes, marks, bugMarks, special, blocked, handoffs int
	inlineScripts                                      int
	external                                           []string // attributes that would fetch something
	titles                                             []string
}

// parsePage reads the page with encoding/xml in its HTML mode: every
// element the page opens must be closed in order, or the decoder fails.
// Script bodies are raw text in HTML: they are counted and cut out first.
func parsePage(t *testing.T, data []byte) page {
	t.Helper()
	var p page
	var rest []byte
	for {
		i := bytes.Index(data, []byte("<script"))
		if i < 0 {
			rest = append(rest, data...)
			break
		}
		j := bytes.Index(data[i:], []byte("</script>"))
		if j < 0 {
			t.Fatal("a script is not closed")
		}
		open := data[i : i+bytes.IndexByte(data[i:], '>')+1]
		if string(open) == "<script>" {
			p.inlineScripts++
		} else {
			p.external = append(p.external, string(open))
		}
		rest = append(rest, data[:i]...)
		data = data[i+j+len("</script>"):]
	}
	d := xml.NewDecoder(bytes.NewReader(rest))
	d.Strict = true
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	var stack []string
	inTitle := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v", err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			stack = append(stack, x.Name.Local)
			class := ""
			for _, a := range x.Attr {
				switch a.Name.Local {
				case "class":
					class = a.Value
				case "src", "href":
					p.external = append(p.external, a.Name.Local+"="+a.Value)
				}
				if strings.Contains(a.Value, "url(http") || strings.HasPrefix(a.Value, "//") {
					p.external = append(p.external, a.Name.Local+"="+a.Value)
				}
			}
			has := func(c string) bool { return strings.Contains(" "+class+" ", " "+c+" ") }
			switch {
			case x.Name.Local == "g" && has("lane"):
				p.lanes++
			case x.Name.Local == "circle" && has("mark"):
				p.marks++
				if has("bug") {
					p.bugMarks++
				}
				if has("special") {
					p.special++
				}
			case x.Name.Local == "rect" && has("blocked"):
				p.blocked++
			case x.Name.Local == "line" && has("handoff"):
				p.handoffs++
			case x.Name.Local == "link":
				p.external = append(p.external, "link")
			}
			inTitle = x.Name.Local == "title" && len(stack) > 1 && stack[len(stack)-2] == "circle"
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1] != x.Name.Local {
				t.Fatalf("</%s> closes %v", x.Name.Local, stack)
			}
			stack = stack[:len(stack)-1]
			inTitle = false
		case xml.CharData:
			if inTitle {
				p.titles = append(p.titles, string(x))
			}
		}
	}
	if len(stack) != 0 {
		t.Fatalf("unclosed elements: %v", stack)
	}
	return p
}

func TestHTMLPage(t *testing.T) {
	tr := &trace.Trace{Package: "example.com/m/p", Dir: module(t), Test: "TestX", Kind: "deadlock", Location: "p/p.go:4",
		Message: "all goroutines are blocked:\n  goroutine g0 blocked on recv at p/p.go:6 in p.TestX\n  goroutine g0.1 blocked on lock at p/p.go:4 in p.f <script>alert(1)</script>\n",
		Entries: []trace.Entry{step("0", "start", "test"), step("0.1", "start", "p/p.go:3"), {Choice: true, N: 2, K: 1},
			step("0", "lock", "p/p.go:4"), step("0.2", "write", "p/p.go:5"), step("0.1", "send", "p/p.go:6")}}
	var b bytes.Buffer
	if err := WriteHTML(&b, tr, "/tmp/x.period", &Shrink{Before: trace.Cost{Switches: 9, Steps: 20, Goroutines: 3}, After: trace.CostOf(tr.Entries), Tries: 7}); err != nil {
		t.Fatal(err)
	}
	p := parsePage(t, b.Bytes())
	if p.lanes != 3 || p.marks != 5 {
		t.Errorf("%d lanes and %d marks, want 3 goroutines and 5 steps", p.lanes, p.marks)
	}
	if p.bugMarks != 1 || p.special != 2 || p.blocked != 2 || p.handoffs != 4 {
		t.Errorf("bug marks %d (want 1, the lock at p.go:4), last operations of blocked goroutines %d (want 2), blocked intervals %d (want 2), hand-offs %d (want 4)",
			p.bugMarks, p.special, p.blocked, p.handoffs)
	}
	if len(p.external) > 0 || p.inlineScripts != 1 {
		t.Errorf("the page is not self-contained: %v, %d inline scripts", p.external, p.inlineScripts)
	}
	html := b.String()
	if strings.Contains(html, "<script>alert") {
		t.Error("the bug's message is not escaped")
	}
	if !strings.Contains(strings.Join(p.titles, "\n"), "step 3: g0 lock p/p.go:4: mu.Lock()") {
		t.Errorf("a mark does not show its source line on hover: %q", p.titles)
	}
	// The source around each step, for the step selected: the site's line
	// marked, escaped for the script.
	if i := strings.Index(html, "var snippets = {"); i < 0 || !strings.Contains(html[i:], `"p/p.go:4":"`) || !strings.Contains(html[i:], `\u003e     4      mu.Lock()`) {
		t.Error("the page has no source snippets of its steps")
	}
	if !strings.Contains(html, "minimised from 9 switches, 20 steps, 3 goroutines (7 schedules tried)") {
		t.Error("the page does not say how the schedule was minimised")
	}
}

// TestHTMLPageLarge: 10,000 steps of 1,000 goroutines give one lane per
// goroutine and one mark per step, in a page of bounded size per step.
func TestHTMLPageLarge(t *testing.T) {
	tr := &trace.Trace{Test: "TestBig", Kind: "leak", Location: "p/p.go:9", Message: "goroutine g0.7 blocked on recv at p/p.go:9 in p.w"}
	for i := 0; i < 10000; i++ {
		g := "0"
		if i%10 != 0 {
			g = fmt.Sprintf("0.%d", i%1000)
		}
		tr.Entries = append(tr.Entries, step(g, "send", fmt.Sprintf("p/p.go:%d", i%50)))
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, tr, "big.period", nil); err != nil {
		t.Fatal(err)
	}
	p := parsePage(t, b.Bytes())
	want := trace.CostOf(tr.Entries)
	if p.lanes != want.Goroutines || p.marks != want.Steps {
		t.Errorf("%d lanes, %d marks; want %d, %d", p.lanes, p.marks, want.Goroutines, want.Steps)
	}
	if per := b.Len() / want.Steps; per > 400 {
		t.Errorf("%d bytes per step", per)
	}
}
