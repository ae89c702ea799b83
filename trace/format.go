//go:build go1.21

package trace

import (
	"fmt"
	"sort"
	"strings"
)

// Format renders the interleaving readably: the global order of steps with a
// marker at every switch between goroutines, then each goroutine's own steps.
// maxSteps bounds the global listing (0 = all); the tail is kept, since the
// steps closest to the failure matter most.
func (t *Trace) Format(maxSteps int) string {
	var b strings.Builder
	var steps []Entry
	for _, e := range t.Entries {
		if !e.Choice {
			steps = append(steps, e)
		}
	}
	switches := 0
	for i := 1; i < len(steps); i++ {
		if steps[i].G != steps[i-1].G {
			switches++
		}
	}
	fmt.Fprintf(&b, "interleaving: %d steps, %d switches between goroutines\n", len(steps), switches)
	start := 0
	if maxSteps > 0 && len(steps) > maxSteps {
		start = len(steps) - maxSteps
		fmt.Fprintf(&b, "  ... %d earlier steps omitted\n", start)
	}
	for i := start; i < len(steps); i++ {
		e := steps[i]
		mark := "  "
		if i > 0 && steps[i-1].G != e.G {
			mark = "->"
		}
		fmt.Fprintf(&b, "  %s %5d  g%-8s %-11s %s\n", mark, i+1, e.G, e.Op, e.Site)
	}
	per := map[string][]string{}
	for i, e := range steps {
		per[e.G] = append(per[e.G], fmt.Sprintf("#%d %s %s", i+1, e.Op, e.Site))
	}
	var gs []string
	for g := range per {
		gs = append(gs, g)
	}
	sort.Slice(gs, func(i, j int) bool { return PathLess(gs[i], gs[j]) })
	b.WriteString("per goroutine:\n")
	for _, g := range gs {
		list := per[g]
		fmt.Fprintf(&b, "  g%s (%d steps)\n", g, len(list))
		from := 0
		if maxSteps > 0 && len(list) > maxSteps {
			from = len(list) - maxSteps
			fmt.Fprintf(&b, "      ... %d earlier\n", from)
		}
		for _, s := range list[from:] {
			fmt.Fprintf(&b, "      %s\n", s)
		}
	}
	return b.String()
}

// PathLess orders goroutine creation paths numerically, component by component
// ("0.2" < "0.10").
func PathLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] != bs[i] {
			if len(as[i]) != len(bs[i]) {
				return len(as[i]) < len(bs[i])
			}
			return as[i] < bs[i]
		}
	}
	return len(as) < len(bs)
}
