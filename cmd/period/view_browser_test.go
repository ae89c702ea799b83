package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/period-dev/period/trace"
)

// The timeline pages period view writes, rendered by headless Chromium:
// the page's script runs to its end without error, its controls work, and
// a screenshot shows as many marks (by colour) and lanes as the DOM holds.

// chromium finds a Chromium or Chrome binary, or "".
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

// headless runs the browser on a local page with extra flags and returns
// its standard output.
func headless(t *testing.T, browser, page string, flags ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--force-device-scale-factor=1",
		"--allow-file-access-from-files", "--user-data-dir=" + t.TempDir()}, flags...)
	cmd := exec.CommandContext(ctx, browser, append(args, "file://"+page)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", browser, args, err, tail(stderr.String(), 2000))
	}
	return out
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

var bodyAttr = regexp.MustCompile(`<body([^>]*)>`)
var attr = regexp.MustCompile(`data-([a-z]+)="([^"]*)"`)

// bodyData reads the data- attributes of the body of a dumped DOM.
func bodyData(t *testing.T, dom []byte) map[string]string {
	t.Helper()
	m := bodyAttr.FindSubmatch(dom)
	if m == nil {
		t.Fatalf("no body in the rendered page:\n%s", tail(string(dom), 2000))
	}
	data := map[string]string{}
	for _, a := range attr.FindAllSubmatch(m[1], -1) {
		data[string(a[1])] = string(a[2])
	}
	return data
}

// probe is a page that loads a timeline page in a frame, works its
// controls, and writes what it saw on its own body (Chromium's --dump-dom
// prints the DOM once the load events have run).
const probe = `<!DOCTYPE html>
<html><head><script>
function check(f) {
  var out = document.body;
  try {
    var d = f.contentDocument, svg = d.getElementById("svg"), w = d.defaultView;
    out.setAttribute("data-ready", d.body.getAttribute("data-ready") || "");
    out.setAttribute("data-pageerror", d.body.getAttribute("data-error") || "");
    var only = d.getElementById("only");
    only.checked = true;
    only.dispatchEvent(new Event("change"));
    var lanes = d.querySelectorAll(".lane"), shown = 0;
    for (var i = 0; i < lanes.length; i++) { if (w.getComputedStyle(lanes[i]).display != "none") { shown++; } }
    out.setAttribute("data-shown", shown);
    out.setAttribute("data-involved", d.querySelectorAll(".lane.involved").length);
    only.checked = false;
    only.dispatchEvent(new Event("change"));
    var m = d.querySelector(".mark.bug") || d.querySelector(".mark");
    m.dispatchEvent(new w.MouseEvent("click", {bubbles: true}));
    out.setAttribute("data-clicked", m.getAttribute("data-step"));
    out.setAttribute("data-detail", d.getElementById("detail").textContent);
    out.setAttribute("data-selected", d.querySelectorAll(".mark.sel").length);
    var w0 = +svg.getAttribute("width");
    d.getElementById("zin").click();
    out.setAttribute("data-zoom", (+svg.getAttribute("width") / w0).toFixed(2));
  } catch (e) {
    out.setAttribute("data-error", String(e));
  }
  out.setAttribute("data-done", "true");
}
</script></head>
<body><iframe src="PAGE" width="1200" height="800" onload="check(this)"></iframe></body></html>
`

func TestViewInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores examples")
	}
	browser := chromium()
	if browser == "" {
		t.Skip("no Chromium: the timeline pages are not rendered (install it, e.g. apt-get install chromium; .ci/run does)")
	}
	var dirs []string
	for _, ex := range []string{"lockorder", "wgadd", "firstresponse"} {
		d, _ := filepath.Abs("../../examples/" + ex)
		dirs = append(dirs, d)
	}
	out := t.TempDir()
	_, sums, stderr := periodJSON(t, append([]string{"test", "-json", "-race=false", "-budget", "300", "-o", out}, dirs...)...)
	var files []string
	for _, s := range sums {
		for _, b := range s.Bugs {
			files = append(files, b.Replay)
			if b.Minimized != "" {
				files = append(files, b.Minimized)
			}
		}
	}
	sort.Strings(files)
	if len(files) < 6 {
		t.Fatalf("want a bug and its minimised file in each example, got %v: %s", files, stderr)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".period"), func(t *testing.T) {
			page := filepath.Join(t.TempDir(), "page.html")
			var o, e bytes.Buffer
			if code := run([]string{"view", "-o", page, file}, &o, &e); code != 0 {
				t.Fatalf("period view: exit %d: %s", code, e.String())
			}
			tr, err := trace.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c := trace.CostOf(tr.Entries)
			bugSteps := 0
			for _, en := range tr.Entries {
				if !en.Choice && en.Site == tr.Location {
					bugSteps++
				}
			}

			// The page alone: its script ran to its end, and its own
			// counts are those of the record.
			dom := headless(t, browser, page, "--dump-dom")
			data := bodyData(t, dom)
			if data["ready"] != "true" || data["error"] != "" {
				t.Fatalf("the page's script did not finish: %v", data)
			}
			if data["lanes"] != strconv.Itoa(c.Goroutines) || data["marks"] != strconv.Itoa(c.Steps) {
				t.Errorf("the page counts %s lanes and %s marks, the record %d goroutines and %d steps", data["lanes"], data["marks"], c.Goroutines, c.Steps)
			}
			if n := bytes.Count(dom, []byte(`<circle class="mark`)); n != c.Steps {
				t.Errorf("rendered DOM has %d marks, want %d", n, c.Steps)
			}
			bugMarks := len(regexp.MustCompile(`<circle class="mark bug`).FindAll(dom, -1))
			special := len(regexp.MustCompile(`<circle class="mark[^"]*special`).FindAll(dom, -1))
			if bugMarks != bugSteps {
				t.Errorf("%d marks at the bug's location, the record has %d steps there", bugMarks, bugSteps)
			}

			// Its controls, worked from a frame.
			pr := filepath.Join(filepath.Dir(page), "probe.html")
			if err := os.WriteFile(pr, []byte(strings.Replace(probe, "PAGE", "page.html", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			p := bodyData(t, headless(t, browser, pr, "--dump-dom"))
			if p["done"] != "true" || p["error"] != "" || p["pageerror"] != "" || p["ready"] != "true" {
				t.Fatalf("probe: %v", p)
			}
			if p["shown"] != p["involved"] || p["shown"] == "0" {
				t.Errorf("only the goroutines involved: %s lanes shown, %s involved", p["shown"], p["involved"])
			}
			if p["selected"] != "1" || !strings.HasPrefix(p["detail"], "step "+p["clicked"]+": g") {
				t.Errorf("selecting step %s: %s selected, detail %q", p["clicked"], p["selected"], p["detail"])
			}
			if p["zoom"] != "1.50" {
				t.Errorf("zoom in scaled the timeline by %s", p["zoom"])
			}

			// A screenshot large enough for the whole timeline: its marks,
			// by colour, and their rows against the DOM's counts.
			width := 90 + 12*c.Steps + 200
			shot := filepath.Join(filepath.Dir(page), "shot.png")
			headless(t, browser, page, "--screenshot="+shot, fmt.Sprintf("--window-size=%d,%d", max(1200, width), 1200+18*c.Goroutines))
			blue, red, orange, rows := countMarks(t, shot)
			if blue+red+orange != c.Steps || red != bugMarks || orange != special || rows != c.Goroutines {
				t.Errorf("screenshot: %d blue, %d red, %d orange marks in %d rows; DOM: %d marks, %d red, %d orange, %d lanes",
					blue, red, orange, rows, c.Steps, bugMarks, special, c.Goroutines)
			}
			t.Logf("screenshot: %d blue, %d red, %d orange marks in %d rows, as the DOM has", blue, red, orange, rows)
		})
	}
}

// countMarks counts the marks of a screenshot: connected blobs of the
// marks' colours (blue, red at the bug, orange), and the rows they lie in.
func countMarks(t *testing.T, file string) (blue, red, orange, rows int) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	colours := [][3]int{{0x4a, 0x7b, 0xd0}, {0xdd, 0x33, 0x33}, {0xe0, 0x8a, 0x00}}
	b := img.Bounds()
	class := make([]int8, b.Dx()*b.Dy())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			px := [3]int{int(r >> 8), int(g >> 8), int(bl >> 8)}
			class[(y-b.Min.Y)*b.Dx()+x-b.Min.X] = -1
			for i, c := range colours {
				if abs(px[0]-c[0])+abs(px[1]-c[1])+abs(px[2]-c[2]) < 40 {
					class[(y-b.Min.Y)*b.Dx()+x-b.Min.X] = int8(i)
				}
			}
		}
	}
	counts := [3]int{}
	var ys []int
	seen := make([]bool, len(class))
	for i, c := range class {
		if c < 0 || seen[i] {
			continue
		}
		// Flood fill one blob of colour c.
		size, sumY := 0, 0
		stack := []int{i}
		seen[i] = true
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			sumY += j / b.Dx()
			x, y := j%b.Dx(), j/b.Dx()
			for _, n := range [][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if n[0] < 0 || n[1] < 0 || n[0] >= b.Dx() || n[1] >= b.Dy() {
					continue
				}
				k := n[1]*b.Dx() + n[0]
				if !seen[k] && class[k] == c {
					seen[k] = true
					stack = append(stack, k)
				}
			}
		}
		if size >= 12 { // a mark (radius 4), not an anti-aliased edge
			counts[c]++
			ys = append(ys, sumY/size)
		}
	}
	sort.Ints(ys)
	for i, y := range ys {
		if i == 0 || y-ys[i-1] > 4 {
			rows++
		}
	}
	return counts[0], counts[1], counts[2], rows
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestViewInChromiumLarge renders the page of a schedule of 1,000
// goroutines and 10,000 steps: it loads, its script finishes, and hiding
// the goroutines not involved leaves those.
func TestViewInChromiumLarge(t *testing.T) {
	browser := chromium()
	if browser == "" {
		t.Skip("no Chromium: the timeline pages are not rendered (install it, e.g. apt-get install chromium; .ci/run does)")
	}
	dir := t.TempDir()
	tr := &trace.Trace{Package: "example.com/big", Dir: dir, Test: "TestBig", Strategy: "random", Seed: 1, Schedule: 1, Kind: "leak", Location: "big/big.go:9",
		Message: "goroutine g0.7 blocked on recv at big/big.go:9 in example.com/big.worker, created at big/big.go:5 by example.com/big.Start"}
	for i := 0; i < 10000; i++ {
		g := "0"
		if i%1000 != 0 {
			g = fmt.Sprintf("0.%d", i%1000)
		}
		tr.Entries = append(tr.Entries, trace.Entry{G: g, Op: "recv", Site: fmt.Sprintf("big/big.go:%d", 5+i%10)})
	}
	file := filepath.Join(dir, "big.period")
	if err := tr.WriteFile(file); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "page.html")
	var o, e bytes.Buffer
	if code := run([]string{"view", "-o", page, file}, &o, &e); code != 0 {
		t.Fatalf("period view: exit %d: %s", code, e.String())
	}
	start := time.Now()
	data := bodyData(t, headless(t, browser, page, "--dump-dom"))
	took := time.Since(start)
	if data["ready"] != "true" || data["error"] != "" || data["lanes"] != "1000" || data["marks"] != "10000" {
		t.Fatalf("the page of 1,000 goroutines: %v", data)
	}
	pr := filepath.Join(dir, "probe.html")
	if err := os.WriteFile(pr, []byte(strings.Replace(probe, "PAGE", "page.html", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	p := bodyData(t, headless(t, browser, pr, "--dump-dom"))
	if p["done"] != "true" || p["error"] != "" || p["shown"] != p["involved"] || p["involved"] == "1000" {
		t.Errorf("probe of the page of 1,000 goroutines: %v", p)
	}
	t.Logf("rendered 1,000 lanes and 10,000 marks in %v (browser start included)", took)
}

// TestViewInChromiumEveryBug renders the timeline page of every bug
// period test reports on the examples and benchmarks (of its minimised
// schedule) in one browser run: each page in a frame, whose script must
// finish with the lanes and marks of its record.
func TestViewInChromiumEveryBug(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores every example and benchmark")
	}
	browser := chromium()
	if browser == "" {
		t.Skip("no Chromium: the timeline pages are not rendered (install it, e.g. apt-get install chromium; .ci/run does)")
	}
	pages := t.TempDir()
	var frames strings.Builder
	n := 0
	for _, set := range []string{"examples", "bench"} {
		root, _ := filepath.Abs("../../" + set)
		var pkgs []string
		for _, d := range exampleDirs(t, root) {
			if fs, _ := filepath.Glob(filepath.Join(d, "*_test.go")); len(fs) > 0 {
				pkgs = append(pkgs, d)
			}
		}
		_, sums, stderr := periodJSON(t, append([]string{"test", "-json", "-o", t.TempDir(), "-html", pages}, pkgs...)...)
		if len(sums) == 0 {
			t.Fatalf("%s: no summaries: %s", set, stderr)
		}
		for _, s := range sums {
			for _, b := range s.Bugs {
				file := b.Minimized
				if file == "" {
					file = b.Replay
				}
				tr, err := trace.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				c := trace.CostOf(tr.Entries)
				page := strings.TrimSuffix(filepath.Base(file), ".period") + ".html"
				if _, err := os.Stat(filepath.Join(pages, page)); err != nil {
					t.Errorf("%s: no page for the %s of %s: %v", set, b.Kind, s.Test, err)
					continue
				}
				fmt.Fprintf(&frames, "<iframe src=%q data-lanes=\"%d\" data-marks=\"%d\" onload=\"check(this)\"></iframe>\n", page, c.Goroutines, c.Steps)
				n++
			}
		}
	}
	const all = `<!DOCTYPE html>
<html><head><script>
var done = 0, bad = [];
function check(f) {
  var b = f.contentDocument.body, want = f.getAttribute("data-lanes") + "/" + f.getAttribute("data-marks");
  var got = b.getAttribute("data-lanes") + "/" + b.getAttribute("data-marks");
  if (b.getAttribute("data-ready") != "true" || b.getAttribute("data-error") || got != want) {
    bad.push(f.getAttribute("src") + ": " + got + " against " + want + " " + (b.getAttribute("data-error") || ""));
  }
  done++;
  document.body.setAttribute("data-checked", done);
  document.body.setAttribute("data-bad", bad.join("; "));
}
</script></head>
<body>
FRAMES</body></html>
`
	index := filepath.Join(pages, "all.html")
	if err := os.WriteFile(index, []byte(strings.Replace(all, "FRAMES", frames.String(), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	data := bodyData(t, headless(t, browser, index, "--dump-dom"))
	if data["checked"] != strconv.Itoa(n) || data["bad"] != "" {
		t.Errorf("%s of %d pages checked; wrong: %s", data["checked"], n, data["bad"])
	}
	t.Logf("%d pages rendered in %v", n, time.Since(start))
}
