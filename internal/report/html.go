package report

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/period-dev/period/trace"
)

// The timeline page: one self-contained HTML file (inline style, script and
// SVG; nothing fetched) showing a replay file's schedule as one lane per
// goroutine.

// laneH and stepW are the geometry of the timeline in SVG units; zooming
// scales the width.
const (
	maxSnippets = 500
	laneH       = 18
	stepW       = 12
	labelW      = 90
)

type htmlMark struct {
	X, Y         int
	Step         int
	G, Op, Site  string
	Src          string
	Bug, Special bool
}

type htmlLane struct {
	G        string
	Y, YText int
	X1, X2   int // first and last step
	Involved bool
	Blocked  string // at the end of the run: what it waits on (deadlock, leak)
	BX, BW   int    // the shaded blocked interval
	Steps    int
	First    int
	Marks    []htmlMark
}

type htmlHandoff struct{ X, Y1, Y2 int }

type htmlPage struct {
	Title, Kind, Location, Message, Test, Package, File string
	Steps, Switches, Goroutines                         int
	Width, Height, LaneH                                int
	Lanes                                               []htmlLane
	Handoffs                                            []htmlHandoff
	Shrink                                              *Shrink
	Snippets                                            map[string]string // site: its source around it
}

var blockedLine = regexp.MustCompile(`goroutine g(\d+(?:\.\d+)*) (blocked on \S+ at \S+|still running[^,]*)`)

// WriteHTML writes the timeline page of tr. shrink, when not nil, says how
// tr was minimised from its original.
func WriteHTML(w io.Writer, tr *trace.Trace, file string, shrink *Shrink) error {
	var steps []trace.Entry
	for _, e := range tr.Entries {
		if !e.Choice {
			steps = append(steps, e)
		}
	}
	c := trace.CostOf(tr.Entries)
	p := htmlPage{Title: fmt.Sprintf("%s: %s at %s", tr.Test, tr.Kind, tr.Location), Kind: tr.Kind, Location: tr.Location,
		Message: tr.Message, Test: tr.Test, Package: tr.Package, File: file, Steps: c.Steps, Switches: c.Switches, Goroutines: c.Goroutines, Shrink: shrink}
	// Lanes in creation-path order; the goroutines the bug concerns first
	// are marked so that the page can hide the others.
	idx := map[string]int{}
	var gs []string
	for _, e := range steps {
		if _, ok := idx[e.G]; !ok {
			idx[e.G] = 0
			gs = append(gs, e.G)
		}
	}
	sort.Slice(gs, func(i, j int) bool { return trace.PathLess(gs[i], gs[j]) })
	inv := map[string]bool{}
	for _, g := range involved(tr.Message, steps) {
		inv[g] = true
	}
	blocked := map[string]string{}
	for _, m := range blockedLine.FindAllStringSubmatch(tr.Message, -1) {
		blocked[m[1]] = m[2]
	}
	for i, g := range gs {
		idx[g] = i
		p.Lanes = append(p.Lanes, htmlLane{G: g, Y: i * laneH, YText: laneH - 5, Involved: inv[g] || blocked[g] != "", Blocked: blocked[g], First: -1})
	}
	src := newSources(tr.Dir)
	last := map[string]bool{} // goroutines whose last step is the bug's
	for i := len(steps) - 1; i >= 0; i-- {
		if _, seen := last[steps[i].G]; !seen {
			last[steps[i].G] = blocked[steps[i].G] != ""
		}
	}
	lastSeen := map[string]bool{}
	marks := make([]htmlMark, len(steps))
	for i := len(steps) - 1; i >= 0; i-- {
		e := steps[i]
		l := &p.Lanes[idx[e.G]]
		x := labelW + i*stepW
		if l.First < 0 {
			l.X2 = x
		}
		l.First = i
		l.X1 = x
		l.Steps++
		special := !lastSeen[e.G] && last[e.G] // the leaked or deadlocked goroutine's last operation
		lastSeen[e.G] = true
		marks[i] = htmlMark{X: x, Y: laneH / 2, Step: i + 1, G: e.G, Op: e.Op, Site: e.Site, Src: src.line(e.Site),
			Bug: tr.Location != "" && e.Site == tr.Location, Special: special}
	}
	// The source around each site, shown when a step is selected; a page of
	// very many sites keeps the first ones.
	p.Snippets = map[string]string{}
	for _, m := range marks {
		if _, ok := p.Snippets[m.Site]; !ok && len(p.Snippets) < maxSnippets {
			if sn := src.snippet(m.Site, 3); sn != "" {
				p.Snippets[m.Site] = sn
			}
		}
	}
	for _, m := range marks {
		l := &p.Lanes[idx[m.G]]
		l.Marks = append(l.Marks, m)
	}
	end := labelW + len(steps)*stepW
	for i := range p.Lanes {
		if l := &p.Lanes[i]; l.Blocked != "" {
			l.BX, l.BW = l.X2+stepW/2, end-l.X2
		}
	}
	for i := 1; i < len(steps); i++ {
		if steps[i].G != steps[i-1].G {
			p.Handoffs = append(p.Handoffs, htmlHandoff{X: labelW + i*stepW, Y1: idx[steps[i-1].G]*laneH + laneH/2, Y2: idx[steps[i].G]*laneH + laneH/2})
		}
	}
	p.Width = end + stepW*2
	p.Height = len(gs)*laneH + 4
	p.LaneH = laneH
	return pageTemplate.Execute(w, p)
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"json":  func(v any) template.JS { b, _ := json.Marshal(v); return template.JS(b) },
	"lower": strings.ToLower,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<title>{{.Title}}</title>
<style>
body { font: 13px/1.4 system-ui, sans-serif; margin: 1em; color: #222; }
pre { background: #f6f6f6; padding: .5em; overflow-x: auto; }
#tl { overflow: auto; border: 1px solid #ccc; max-height: 70vh; }
.lane text { font: 11px monospace; fill: #333; }
.lane line { stroke: #bbb; }
.lane.out { display: none; }
.blocked { fill: #f4c7c3; }
.mark { fill: #4a7bd0; cursor: pointer; }
.mark.bug { fill: #d33; }
.mark.special { fill: #e08a00; }
.mark.sel { stroke: #000; stroke-width: 2; }
.handoff { stroke: #999; stroke-width: 1; marker-end: url(#arrow); }
.bar button, .bar label { margin-right: .6em; }
#detail { min-height: 3em; }
#snippet:empty { display: none; }
</style>
</head>
<body>
<h1>{{.Test}}: {{.Kind}} at {{.Location}}</h1>
<p>{{.Package}} &middot; {{.Steps}} steps, {{.Switches}} switches, {{.Goroutines}} goroutines{{with .Shrink}} &middot; minimised from {{.Before.Switches}} switches, {{.Before.Steps}} steps, {{.Before.Goroutines}} goroutines ({{.Tries}} schedules tried){{end}} &middot; replay: <code>period replay {{.File}}</code></p>
<pre id="message">{{.Message}}</pre>
<div class="bar">
<button type="button" id="zin">zoom in</button><button type="button" id="zout">zoom out</button>
<label><input type="checkbox" id="only"/> only the goroutines involved</label>
<span>blue: a step; red: at the bug's location; orange: the last operation of a blocked goroutine; shaded: blocked until the end</span>
</div>
<div id="tl">
<svg id="svg" xmlns="http://www.w3.org/2000/svg" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" preserveAspectRatio="none">
<defs><marker id="arrow" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="5" markerHeight="5" orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="#999"/></marker></defs>
{{range .Handoffs}}<line class="handoff" x1="{{.X}}" y1="{{.Y1}}" x2="{{.X}}" y2="{{.Y2}}"/>
{{end}}{{range .Lanes}}<g class="lane{{if .Involved}} involved{{end}}" data-g="{{.G}}" transform="translate(0,{{.Y}})">
<text x="2" y="{{.YText}}">g{{.G}}</text>
<line x1="{{.X1}}" y1="9" x2="{{.X2}}" y2="9"/>
{{if .Blocked}}<rect class="blocked" x="{{.BX}}" y="1" width="{{.BW}}" height="16"><title>g{{.G}} {{.Blocked}}</title></rect>
{{end}}{{range .Marks}}<circle class="mark{{if .Bug}} bug{{end}}{{if .Special}} special{{end}}" cx="{{.X}}" cy="{{.Y}}" r="4" data-step="{{.Step}}" data-site="{{.Site}}"><title>step {{.Step}}: g{{.G}} {{.Op}} {{.Site}}{{if .Src}}: {{.Src}}{{end}}</title></circle>
{{end}}</g>
{{end}}</svg>
</div>
<div id="detail">Select a step to see its source.</div>
<pre id="snippet"></pre>
<script>
// data-ready and data-error on the body tell a headless browser (the
// tests) whether this script ran to its end.
window.addEventListener("error", function (ev) { document.body.setAttribute("data-error", ev.message); });
(function () {
  var svg = document.getElementById("svg"), w = {{.Width}}, zoom = 1;
  function scale(f) {
    zoom = Math.max(0.05, Math.min(8, zoom * f));
    svg.setAttribute("width", Math.round(w * zoom));
  }
  document.getElementById("zin").onclick = function () { scale(1.5); };
  document.getElementById("zout").onclick = function () { scale(1 / 1.5); };
  // Hiding lanes lays the others out again, so that a few lanes of a
  // thousand goroutines fit a screen; hand-offs are hidden with them.
  document.getElementById("only").onchange = function (ev) {
    var lanes = svg.querySelectorAll(".lane"), y = 0;
    for (var i = 0; i < lanes.length; i++) {
      var out = ev.target.checked && !lanes[i].classList.contains("involved");
      lanes[i].classList.toggle("out", out);
      if (!out) { lanes[i].setAttribute("transform", "translate(0," + y + ")"); y += {{.LaneH}}; }
    }
    var hs = svg.querySelectorAll(".handoff");
    for (var j = 0; j < hs.length; j++) { hs[j].style.display = ev.target.checked ? "none" : ""; }
    svg.setAttribute("height", y + 4);
    svg.setAttribute("viewBox", "0 0 " + w + " " + (y + 4));
  };
  var snippets = {{.Snippets}};
  var sel = null, detail = document.getElementById("detail"), snippet = document.getElementById("snippet");
  svg.addEventListener("click", function (ev) {
    var m = ev.target.closest(".mark");
    if (!m) { return; }
    if (sel) { sel.classList.remove("sel"); }
    sel = m;
    m.classList.add("sel");
    detail.textContent = m.querySelector("title").textContent;
    snippet.textContent = snippets[m.getAttribute("data-site")] || "";
  });
  document.body.setAttribute("data-lanes", svg.querySelectorAll(".lane").length);
  document.body.setAttribute("data-marks", svg.querySelectorAll(".mark").length);
  document.body.setAttribute("data-ready", "true");
})();
</script>
</body>
</html>
`))
