//go:build go1.21

package trace

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// simOp is one key point of a simulated goroutine.
type simOp struct {
	op   string // "start", "go", "read", "write", "signal", "wait", "yield"
	arg  string // the goroutine started, the variable read or written, the flag signalled or waited for
	site string
}

// sim is a tiny program: goroutines as lists of key points over shared
// variables and flags. A "wait" is enabled once its flag is signalled; a
// goroutine is enabled once started by a "go".
type sim struct {
	progs map[string][]simOp
	bug   func(reads map[string]int) bool // on the values each "read" site saw
}

// run follows the guide of cand and returns the record and whether the bug happened.
func (s sim) run(cand []Entry) ([]Entry, bool) {
	g := NewGuide(cand)
	pc := map[string]int{}
	live := map[string]bool{"0": true}
	vars, flags := map[string]int{}, map[string]bool{}
	reads := map[string]int{}
	var rec []Entry
	for steps := 0; steps < 1000; steps++ {
		var en []Entry
		for _, p := range []string{"0", "0.1", "0.2", "0.3"} {
			prog := s.progs[p]
			if !live[p] || pc[p] >= len(prog) {
				continue
			}
			op := prog[pc[p]]
			if op.op == "wait" && !flags[op.arg] {
				continue
			}
			en = append(en, Entry{G: p, Op: op.op, Site: op.site})
		}
		if len(en) == 0 {
			break
		}
		e := en[g.Next(en)]
		rec = append(rec, e)
		op := s.progs[e.G][pc[e.G]]
		pc[e.G]++
		switch op.op {
		case "go":
			live[op.arg] = true
		case "read":
			reads[op.site] = vars[op.arg]
		case "write":
			vars[op.arg]++
		case "signal":
			flags[op.arg] = true
		}
	}
	return rec, s.bug(reads)
}

func (s sim) try(cand []Entry) []Entry {
	rec, bug := s.run(cand)
	if !bug {
		return nil
	}
	return rec
}

func steps(spec ...string) []Entry {
	var es []Entry
	for i := 0; i+2 < len(spec)+1; i += 3 {
		es = append(es, Entry{G: spec[i], Op: spec[i+1], Site: spec[i+2]})
	}
	return es
}

// orderViolation: the test goroutine reads x before the child that sets it
// has run; a third goroutine only adds noise.
var orderViolation = sim{
	progs: map[string][]simOp{
		"0": {{"start", "", "t.go:1"}, {"go", "0.1", "t.go:2"}, {"go", "0.2", "t.go:3"}, {"read", "x", "t.go:4"},
			{"wait", "done1", "t.go:5"}, {"wait", "done2", "t.go:6"}},
		"0.1": {{"start", "", "c.go:1"}, {"write", "x", "c.go:2"}, {"signal", "done1", "c.go:3"}},
		"0.2": {{"start", "", "n.go:1"}, {"write", "y", "n.go:2"}, {"write", "y", "n.go:3"}, {"signal", "done2", "n.go:4"}},
	},
	bug: func(reads map[string]int) bool { return reads["t.go:4"] == 0 },
}

// A failing schedule with many needless switches.
var orderViolationRecord = steps(
	"0", "start", "t.go:1", "0", "go", "t.go:2", "0.1", "start", "c.go:1", "0", "go", "t.go:3",
	"0.2", "start", "n.go:1", "0", "read", "t.go:4", "0.2", "write", "n.go:2", "0.1", "write", "c.go:2",
	"0.2", "write", "n.go:3", "0.1", "signal", "c.go:3", "0", "wait", "t.go:5", "0.2", "signal", "n.go:4",
	"0", "wait", "t.go:6")

func TestGuideFollowsRecord(t *testing.T) {
	rec, bug := orderViolation.run(orderViolationRecord)
	if !bug || !reflect.DeepEqual(rec, orderViolationRecord) {
		t.Fatalf("the guide did not follow its record: bug %v\n got %v\nwant %v", bug, rec, orderViolationRecord)
	}
}

func TestMinimizeOrderViolation(t *testing.T) {
	before := CostOf(orderViolationRecord)
	if before.Switches != 11 {
		t.Fatalf("record has %d switches, want 11", before.Switches)
	}
	best, tries := Minimize(orderViolationRecord, 200, orderViolation.try)
	// By hand: every step runs (the failure is seen at the end), and the
	// fewest switches are 0 up to its read, then each child through (1
	// switch each), then back to 0 for its waits: 3 switches, 13 steps.
	want := Cost{Switches: 3, Steps: 13, Goroutines: 3}
	if got := CostOf(best); got != want {
		t.Fatalf("minimised to %+v after %d tries, want %+v:\n%v", got, tries, want, best)
	}
	if _, bug := orderViolation.run(best); !bug {
		t.Fatal("the minimised record does not show the bug")
	}
	if tries > 200 {
		t.Fatalf("%d tries over the budget of 200", tries)
	}
	again, tries2 := Minimize(orderViolationRecord, 200, orderViolation.try)
	if !reflect.DeepEqual(again, best) || tries2 != tries {
		t.Fatal("minimising the same record twice gave different results")
	}
}

// The budget caps the candidates tried, and a cut-short minimisation still
// never returns a record with more switches.
func TestMinimizeBudget(t *testing.T) {
	for _, budget := range []int{0, 1, 3} {
		best, tries := Minimize(orderViolationRecord, budget, orderViolation.try)
		if tries > budget {
			t.Errorf("budget %d: %d tries", budget, tries)
		}
		if CostOf(best).Switches > CostOf(orderViolationRecord).Switches {
			t.Errorf("budget %d: the result has more switches than the record", budget)
		}
	}
}

func TestMinimizeNoReproduction(t *testing.T) {
	never := func([]Entry) []Entry { return nil }
	best, tries := Minimize(orderViolationRecord, 50, never)
	if tries != 1 || !reflect.DeepEqual(best, orderViolationRecord) {
		t.Fatalf("a record the guide cannot reproduce: %d tries, changed %v", tries, !reflect.DeepEqual(best, orderViolationRecord))
	}
}

func TestGuideChoices(t *testing.T) {
	g := NewGuide([]Entry{{G: "0", Op: "select"}, {Choice: true, N: 3, K: 2}, {G: "0", Op: "select"}, {Choice: true, N: 2, K: 1}})
	en := []Entry{{G: "0", Op: "select"}}
	g.Next(en)
	if k := g.Choose(3); k != 2 {
		t.Errorf("first choice %d, want 2", k)
	}
	g.Next(en)
	if k := g.Choose(4); k != 0 {
		t.Errorf("a choice among another number of alternatives: %d, want the first", k)
	}
	g.Next(en)
	if k := g.Choose(2); k != 0 {
		t.Errorf("past the candidate: choice %d, want 0", k)
	}
}

func TestCostOf(t *testing.T) {
	c := CostOf([]Entry{{G: "0"}, {Choice: true, N: 2}, {G: "0"}, {G: "0.1"}, {G: "0"}})
	if c != (Cost{Switches: 2, Steps: 4, Goroutines: 2}) {
		t.Fatalf("%+v", c)
	}
	if !(Cost{1, 9, 9}).Less(Cost{2, 1, 1}) || (Cost{1, 2, 3}).Less(Cost{1, 2, 3}) || !(Cost{1, 2, 2}).Less(Cost{1, 2, 3}) {
		t.Fatal("Less is not lexicographic")
	}
}

func TestMoves(t *testing.T) {
	var us []unit
	for i, g := range []string{"A", "B", "A", "C", "B"} {
		us = append(us, unit{step: Entry{G: g, Site: fmt.Sprint(i)}})
	}
	order := func(us []unit) string {
		var s []string
		for _, u := range us {
			s = append(s, u.step.G+u.step.Site)
		}
		return strings.Join(s, " ")
	}
	bs := blocks(us)
	for _, c := range []struct {
		name string
		got  []unit
		want string
	}{
		{"pull A2", pull(us, bs, map[int]bool{2: true}), "A0 A2 B1 C3 B4"},
		{"pull B4", pull(us, bs, map[int]bool{4: true}), "A0 B1 B4 A2 C3"},
		{"pull A2 B4", pull(us, bs, map[int]bool{2: true, 4: true}), "A0 A2 B1 B4 C3"},
		{"push A0", push(us, bs, map[int]bool{0: true}), "B1 A0 A2 C3 B4"},
		{"push B1", push(us, bs, map[int]bool{1: true}), "A0 A2 C3 B1 B4"},
	} {
		if got := order(c.got); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// Past its candidate, the guide keeps the goroutine that ran last (no
// needless switch) unless it only yields, else takes the first by path.
func TestGuideDefaultOrder(t *testing.T) {
	g := NewGuide([]Entry{{G: "0.2", Op: "lock"}})
	en := []Entry{{G: "0.10", Op: "lock"}, {G: "0.2", Op: "lock"}, {G: "0.3", Op: "send"}}
	if i := g.Next(en); en[i].G != "0.2" {
		t.Fatalf("the candidate's step: ran %s", en[i].G)
	}
	if i := g.Next(en); en[i].G != "0.2" {
		t.Fatalf("past the candidate the last goroutine goes on: ran %s", en[i].G)
	}
	en = []Entry{{G: "0.10", Op: "lock"}, {G: "0.2", Op: "yield"}, {G: "0.3", Op: "yield"}}
	if i := g.Next(en); en[i].G != "0.10" {
		t.Fatalf("a yielding goroutine lets another run: ran %s", en[i].G)
	}
	en = []Entry{{G: "0.10", Op: "yield"}, {G: "0.3", Op: "send"}, {G: "0.2", Op: "recv"}}
	if i := g.Next(en); en[i].G != "0.2" {
		t.Fatalf("the first by creation path among those not yielding: ran %s", en[i].G)
	}
}
