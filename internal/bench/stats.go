package bench

import (
	"math"
	"slices"
	"sort"
)

// Stat sums up the trials of a cell.
type Stat struct {
	Trials    int
	Found     int // trials that found the wanted bug
	Errors    int
	Exhausted int     // trials whose strategy exhausted its space without the wanted bug
	First     Range   // schedules to the first wanted bug, over the trials that found it
	Buggy     Range   // schedules that hit the wanted bug, over all trials without error
	Schedules Range   // schedules explored
	Elapsed   float64 // seconds, summed over trials
	PerSched  float64 // seconds per schedule: the median over trials (robust to a trial slowed by a busy machine); 0 if none
	FalseBugs []string
}

// Range is the lower median, minimum and maximum of a list of counts.
type Range struct {
	N, Median, Min, Max int
}

func rangeOf(xs []int) Range {
	if len(xs) == 0 {
		return Range{}
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	return Range{N: len(s), Median: s[(len(s)-1)/2], Min: s[0], Max: s[len(s)-1]}
}

// Stat computes the summary of c.
func (c Cell) Stat() Stat {
	st := Stat{Trials: len(c.Trials)}
	var first, buggy, scheds []int
	var per []float64
	for _, t := range c.Trials {
		if t.Error != "" {
			st.Errors++
			continue
		}
		if t.Found {
			st.Found++
			first = append(first, t.First)
		} else if t.Exhausted {
			st.Exhausted++
		}
		if c.Want == "none" {
			for _, k := range t.Kinds {
				if !slices.Contains(st.FalseBugs, k) {
					st.FalseBugs = append(st.FalseBugs, k)
				}
			}
		}
		buggy = append(buggy, t.Buggy)
		scheds = append(scheds, t.Schedules)
		if t.Schedules > 0 {
			per = append(per, t.Elapsed/float64(t.Schedules))
		}
		st.Elapsed += t.Elapsed
	}
	st.First, st.Buggy, st.Schedules = rangeOf(first), rangeOf(buggy), rangeOf(scheds)
	st.PerSched = median(per)
	return st
}

// cell returns the cell of test t and strategy s, or nil.
func (r *Results) cell(t Test, s string) *Cell {
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Package == t.Package && c.Test == t.Name && c.Strategy == s {
			return c
		}
	}
	return nil
}

// bugTests are the tests that want a bug.
func (r *Results) bugTests() []Test {
	var out []Test
	for _, t := range r.Tests {
		if t.Want != "none" {
			out = append(out, t)
		}
	}
	return out
}

// Overhead is the time per schedule of strategy s on test t divided by
// that of the native run of t; ok is false when either is missing.
func (r *Results) Overhead(t Test, s string) (ratio float64, ok bool) {
	c, n := r.cell(t, s), r.cell(t, "native")
	if c == nil || n == nil {
		return 0, false
	}
	cs, ns := c.Stat(), n.Stat()
	if cs.PerSched <= 0 || ns.PerSched <= 0 {
		return 0, false
	}
	return cs.PerSched / ns.PerSched, true
}

// OverheadSummary is the geometric mean, minimum and maximum of a
// strategy's overhead over the tests; n counts the tests.
func (r *Results) OverheadSummary(s string) (geo, min, max float64, n int) {
	var xs []float64
	for _, t := range r.Tests {
		if x, ok := r.Overhead(t, s); ok {
			xs = append(xs, x)
		}
	}
	geo, min, max = geoRange(xs)
	return geo, min, max, len(xs)
}

// geoRange is the geometric mean, minimum and maximum of positive xs (0s
// if there are none).
func geoRange(xs []float64) (geo, lo, hi float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	sum := 0.0
	lo, hi = xs[0], xs[0]
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
		sum += math.Log(x)
	}
	return math.Exp(sum / float64(len(xs))), lo, hi
}

// FoundWithin is, averaged over seeds, how many bug tests strategy s found
// within x schedules: the curve of the cumulative figure.
func (r *Results) FoundWithin(s string, x int) float64 {
	total := 0.0
	for _, t := range r.bugTests() {
		c := r.cell(t, s)
		if c == nil || len(c.Trials) == 0 {
			continue
		}
		k := 0
		for _, tr := range c.Trials {
			if tr.Found && tr.First <= x {
				k++
			}
		}
		total += float64(k) / float64(len(c.Trials))
	}
	return total
}
