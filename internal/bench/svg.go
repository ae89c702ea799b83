package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strings"
)

// palette colours the strategies in order; period is drawn thicker.
var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
	"#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#843c39", "#7b4173"}

func colour(i int) string { return palette[i%len(palette)] }

// plot is the frame of a chart: the SVG size and the plotting area inside.
type plot struct {
	b                        strings.Builder
	w, h                     int
	left, right, top, bottom float64 // plotting area in pixels
}

func newPlot(w, h int, left, right, top, bottom float64, title string) *plot {
	pl := &plot{w: w, h: h, left: left, right: float64(w) - right, top: top, bottom: float64(h) - bottom}
	pl.add(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	pl.add(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	pl.add(`<text x="%d" y="20" text-anchor="middle" font-size="14">%s</text>`+"\n", w/2, html.EscapeString(title))
	return pl
}

func (pl *plot) add(format string, args ...any) { fmt.Fprintf(&pl.b, format, args...) }

func (pl *plot) text(x, y float64, anchor, s string) {
	pl.add(`<text x="%.1f" y="%.1f" text-anchor="%s">%s</text>`+"\n", x, y, anchor, html.EscapeString(s))
}

func (pl *plot) line(x1, y1, x2, y2 float64, stroke string) {
	pl.add(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", x1, y1, x2, y2, stroke)
}

func (pl *plot) writeTo(w io.Writer) error {
	pl.add("</svg>\n")
	_, err := io.WriteString(w, pl.b.String())
	return err
}

// logTicks are 1, 2, 5, 10, 20, 50 ... up to max.
func logTicks(max float64) []float64 {
	var ts []float64
	for d := 1.0; d <= max; d *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if d*m <= max {
				ts = append(ts, d*m)
			}
		}
	}
	return ts
}

// WriteCumulativeSVG draws, per strategy, how many bug tests were found
// within x schedules (averaged over seeds), x on a log scale up to the
// budget: the higher and the further left a line, the better.
func WriteCumulativeSVG(w io.Writer, r *Results) error {
	pl := newPlot(820, 460, 60, 170, 40, 50, fmt.Sprintf("Bugs found within x schedules (of %d bug tests; mean over seeds)", len(r.bugTests())))
	budget := math.Max(float64(r.Budget), 2)
	ymax := math.Max(float64(len(r.bugTests())), 1)
	X := func(x float64) float64 { return pl.left + math.Log10(x)/math.Log10(budget)*(pl.right-pl.left) }
	Y := func(y float64) float64 { return pl.bottom - y/ymax*(pl.bottom-pl.top) }
	// Axes, grid and labels.
	for _, t := range logTicks(budget) {
		pl.line(X(t), pl.top, X(t), pl.bottom, "#eee")
		pl.text(X(t), pl.bottom+16, "middle", fmt.Sprint(t))
	}
	ystep := math.Max(1, math.Ceil(ymax/10))
	for y := 0.0; y <= ymax; y += ystep {
		pl.line(pl.left, Y(y), pl.right, Y(y), "#eee")
		pl.text(pl.left-6, Y(y)+4, "end", fmt.Sprint(y))
	}
	pl.line(pl.left, pl.bottom, pl.right, pl.bottom, "black")
	pl.line(pl.left, pl.top, pl.left, pl.bottom, "black")
	pl.text((pl.left+pl.right)/2, float64(pl.h)-12, "middle", "schedules (log scale)")
	pl.add(`<text transform="translate(16 %.1f) rotate(-90)" text-anchor="middle">bugs found</text>`+"\n", (pl.top+pl.bottom)/2)
	for i, s := range r.Strategies {
		var xs []int
		for _, c := range r.Cells {
			if c.Strategy != s || c.Want == "none" {
				continue
			}
			for _, t := range c.Trials {
				if t.Found {
					xs = append(xs, t.First)
				}
			}
		}
		sort.Ints(xs)
		d := fmt.Sprintf("M%.1f %.1f", X(1), Y(r.FoundWithin(s, 1)))
		for j, x := range xs {
			if x <= 1 || j > 0 && xs[j-1] == x {
				continue
			}
			d += fmt.Sprintf(" H%.1f V%.1f", X(float64(x)), Y(r.FoundWithin(s, x)))
		}
		d += fmt.Sprintf(" H%.1f", X(budget))
		width := 1.5
		if s == "period" {
			width = 3
		}
		pl.add(`<path d="%s" fill="none" stroke="%s" stroke-width="%.1f"/>`+"\n", d, colour(i), width)
		ly := pl.top + 10 + float64(i)*18
		pl.line(pl.right+12, ly-4, pl.right+36, ly-4, colour(i))
		pl.text(pl.right+42, ly, "start", fmt.Sprintf("%s (%.1f)", s, r.FoundWithin(s, r.Budget)))
	}
	return pl.writeTo(w)
}

// WriteOverheadSVG draws each strategy's time per schedule relative to the
// native run of the same tests: geometric mean bars with min-max whiskers,
// on a log scale; bars start at 1x (as fast as native).
func WriteOverheadSVG(w io.Writer, r *Results) error {
	type row struct {
		s            string
		geo, lo, hi  float64
		n, colourIdx int
	}
	var rows []row
	hi := 2.0
	for i, s := range r.Strategies {
		if s == "native" {
			continue
		}
		if g, lo, h, n := r.OverheadSummary(s); n > 0 {
			rows = append(rows, row{s, g, lo, h, n, i})
			hi = math.Max(hi, h)
		}
	}
	height := 90 + 26*len(rows)
	pl := newPlot(820, height, 110, 40, 40, 50, "Time per schedule relative to native (geometric mean over tests, min-max whiskers)")
	top := math.Pow(10, math.Ceil(math.Log10(hi)))
	bottom := 0.5
	for _, rw := range rows {
		if rw.lo < bottom {
			bottom = 0.1
		}
	}
	X := func(x float64) float64 {
		return pl.left + math.Log10(math.Max(x, bottom)/bottom)/math.Log10(top/bottom)*(pl.right-pl.left)
	}
	ticks := []float64{0.1, 0.2, 0.5}
	if bottom == 0.5 {
		ticks = ticks[2:]
	}
	for _, t := range append(ticks, logTicks(top)...) {
		pl.line(X(t), pl.top, X(t), pl.bottom, "#eee")
		pl.text(X(t), pl.bottom+16, "middle", fmt.Sprintf("%gx", t))
	}
	pl.line(X(1), pl.top, X(1), pl.bottom, "black")
	pl.text((pl.left+pl.right)/2, float64(pl.h)-12, "middle", "slowdown against native (log scale)")
	for i, rw := range rows {
		y := pl.top + 6 + float64(i)*26
		x0, x1 := math.Min(X(1), X(rw.geo)), math.Max(X(1), X(rw.geo))
		pl.add(`<rect x="%.1f" y="%.1f" width="%.1f" height="16" fill="%s"/>`+"\n", x0, y, x1-x0, colour(rw.colourIdx))
		pl.line(X(rw.lo), y+8, X(rw.hi), y+8, "black")
		pl.line(X(rw.lo), y+3, X(rw.lo), y+13, "black")
		pl.line(X(rw.hi), y+3, X(rw.hi), y+13, "black")
		pl.text(pl.left-6, y+12, "end", rw.s)
		pl.text(X(rw.hi)+6, y+12, "start", fmt.Sprintf("%.1fx", rw.geo))
	}
	return pl.writeTo(w)
}
