//go:build go1.21

package strategy

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func pgAll(g pgGen) []string {
	var out []string
	for {
		s, ok := g.next()
		if !ok {
			return out
		}
		out = append(out, s.String())
	}
}

func pgTestSlice(ks ...int) pgSlice {
	m := map[GID]int{}
	for i, k := range ks {
		m[GID(i)] = k
	}
	return pgCounts(m)
}

// The paper's worked example (section 3.2.1): slice with 3 key points in t0,
// 2 in t1 and 1 in t2, four periods.
func TestPeriodGenPaperExample(t *testing.T) {
	got := pgAll(newPgSerial(pgTestSlice(3, 2, 1), 4, pgPrefix{}))
	want := []string{
		// pattern [t0][t1][t0][t2]: t1's spare key point can only go to
		// period 2, t0's to period 1 or 3 (the paper's two schedules).
		"<{t0,t0},{t1,t1},{t0},{t2}>",
		"<{t0},{t1,t1},{t0,t0},{t2}>",
		// the next pattern: [t0][t1][t2][t0], and so on
		"<{t0,t0},{t1,t1},{t2},{t0}>",
		"<{t0},{t1,t1},{t2},{t0,t0}>",
		"<{t0,t0,t0},{t1},{t2},{t1}>",
		"<{t0,t0},{t2},{t0},{t1,t1}>",
		"<{t0},{t2},{t0,t0},{t1,t1}>",
		"<{t0,t0},{t2},{t1,t1},{t0}>",
		"<{t0},{t2},{t1,t1},{t0,t0}>",
		"<{t1},{t0,t0,t0},{t1},{t2}>",
		"<{t1,t1},{t0,t0},{t2},{t0}>",
		"<{t1,t1},{t0},{t2},{t0,t0}>",
		"<{t1},{t0,t0,t0},{t2},{t1}>",
		"<{t1},{t2},{t0,t0,t0},{t1}>",
		"<{t1},{t2},{t1},{t0,t0,t0}>",
		"<{t2},{t0,t0},{t1,t1},{t0}>",
		"<{t2},{t0},{t1,t1},{t0,t0}>",
		"<{t2},{t1},{t0,t0,t0},{t1}>",
	}
	if !reflect.DeepEqual(got[:2], want[:2]) {
		t.Fatalf("first pattern: got %v, want %v", got[:2], want[:2])
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// pgBruteSerial lists every p-period schedule satisfying R1-R4.
func pgBruteSerial(sl pgSlice, p int) []string {
	var out []string
	var rec func(s pgSchedule, rem []int)
	rec = func(s pgSchedule, rem []int) {
		if len(s) == p {
			for _, r := range rem {
				if r != 0 {
					return
				}
			}
			out = append(out, s.String())
			return
		}
		for i, t := range sl.T {
			if len(s) > 0 && s[len(s)-1][0].T == t {
				continue
			}
			for n := 1; n <= rem[i]; n++ {
				rem[i] -= n
				rec(append(append(pgSchedule(nil), s...), pgPeriod{{t, n}}), rem)
				rem[i] += n
			}
		}
	}
	rec(nil, append([]int(nil), sl.K...))
	return out
}

// pgBruteParallel lists the relaxed set: p-1 single-thread periods (adjacent
// ones differ, none empty), then a last period with every remaining key
// point, not empty, without the thread of the period before it, and with at
// most one thread that also ran earlier.
func pgBruteParallel(sl pgSlice, p int) []string {
	var out []string
	var rec func(s pgSchedule, rem []int)
	rec = func(s pgSchedule, rem []int) {
		if len(s) == p-1 {
			var last pgPeriod
			earlier := 0
			for i, t := range sl.T {
				if rem[i] == 0 {
					continue
				}
				if len(s) > 0 && s[len(s)-1][0].T == t {
					return
				}
				for _, per := range s {
					if per[0].T == t {
						earlier++
						break
					}
				}
				last = append(last, pgSlot{t, rem[i]})
			}
			if len(last) == 0 || earlier > 1 {
				return
			}
			out = append(out, append(append(pgSchedule(nil), s...), last).String())
			return
		}
		for i, t := range sl.T {
			if len(s) > 0 && s[len(s)-1][0].T == t {
				continue
			}
			for n := 1; n <= rem[i]; n++ {
				rem[i] -= n
				rec(append(append(pgSchedule(nil), s...), pgPeriod{{t, n}}), rem)
				rem[i] += n
			}
		}
	}
	rec(nil, append([]int(nil), sl.K...))
	return out
}

// pgBruteSatisfies checks a schedule string against a prefix, on strings.
func pgBruteSatisfies(s string, pre pgPrefix) bool {
	pers := strings.Split(strings.Trim(s, "<>"), "},{")
	for i := range pers {
		pers[i] = strings.Trim(pers[i], "{}")
	}
	if pre.len() > len(pers) {
		return false
	}
	for i, l := range pre.Lit {
		if "<{"+pers[i]+"}>" != (pgSchedule{pgPeriod{l}}).String() {
			return false
		}
	}
	if !pre.HasPat {
		return true
	}
	name := fmt.Sprintf("t%d", pre.Pat)
	found, others := false, false
	for _, x := range strings.Split(pers[len(pre.Lit)], ",") {
		if strings.SplitN(x, "^", 2)[0] == name {
			found = true
		} else {
			others = true
		}
	}
	if len(pre.Lit) == len(pers)-1 {
		return found
	}
	return found && !others
}

var pgTestSlices = [][]int{{1}, {2}, {1, 1}, {2, 1}, {3, 2, 1}, {2, 2, 2}, {1, 1, 1, 1}, {3, 3}, {4, 1, 2}, {1, 3, 1, 2}, {3, 2, 2, 1}}

func pgSortedCopy(xs []string) []string {
	ys := append([]string(nil), xs...)
	sort.Strings(ys)
	return ys
}

func pgCheckSame(t *testing.T, what string, got, want []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, g := range got {
		if seen[g] {
			t.Fatalf("%s: %s generated twice", what, g)
		}
		seen[g] = true
	}
	if !reflect.DeepEqual(pgSortedCopy(got), pgSortedCopy(want)) {
		t.Fatalf("%s:\ngot  %v\nwant %v", what, got, want)
	}
}

func TestPeriodGenSerialBruteForce(t *testing.T) {
	total := 0
	for _, ks := range pgTestSlices {
		sl := pgTestSlice(ks...)
		for p := 1; p <= 8; p++ {
			got := pgAll(newPgSerial(sl, p, pgPrefix{}))
			pgCheckSame(t, fmt.Sprintf("serial %v p=%d", ks, p), got, pgBruteSerial(sl, p))
			total += len(got)
		}
	}
	if total < 2000 {
		t.Fatalf("only %d schedules checked", total)
	}
}

func TestPeriodGenParallelBruteForce(t *testing.T) {
	total := 0
	for _, ks := range pgTestSlices {
		sl := pgTestSlice(ks...)
		for p := 1; p <= 8; p++ {
			got := pgAll(newPgParallel(sl, p, pgPrefix{}))
			pgCheckSame(t, fmt.Sprintf("parallel %v p=%d", ks, p), got, pgBruteParallel(sl, p))
			total += len(got)
		}
	}
	if total < 2000 {
		t.Fatalf("only %d schedules checked", total)
	}
}

// pgTestPrefixes derives prefixes from schedules (every literal length and
// every pattern thread), plus a few that fit nothing.
func pgTestPrefixes(sl pgSlice, p int) []pgPrefix {
	var out []pgPrefix
	seen := map[string]bool{}
	add := func(x pgPrefix) {
		if !seen[x.String()] {
			seen[x.String()] = true
			out = append(out, x)
		}
	}
	add(pgPrefix{})
	add(pgPrefix{Lit: []pgSlot{{0, 9}}, Pat: 1, HasPat: true})
	add(pgPrefix{Pat: 7, HasPat: true})
	g := newPgParallel(sl, p, pgPrefix{})
	for {
		s, ok := g.next()
		if !ok {
			break
		}
		var lit []pgSlot
		for j, per := range s {
			for _, sl := range per {
				add(pgPrefix{Lit: append([]pgSlot(nil), lit...), Pat: sl.T, HasPat: true})
			}
			if j < len(s)-1 {
				lit = append(lit, per[0])
				add(pgPrefix{Lit: append([]pgSlot(nil), lit...)})
			}
		}
	}
	return out
}

func TestPeriodGenPrefixFilter(t *testing.T) {
	checked := 0
	for _, ks := range pgTestSlices {
		sl := pgTestSlice(ks...)
		for p := 1; p <= 5; p++ {
			all := map[string][]string{"serial": pgBruteSerial(sl, p), "parallel": pgBruteParallel(sl, p)}
			for _, pre := range pgTestPrefixes(sl, p) {
				for kind, brute := range all {
					var want []string
					for _, s := range brute {
						if pgBruteSatisfies(s, pre) {
							want = append(want, s)
						}
					}
					var g pgGen
					if kind == "serial" {
						g = newPgSerial(sl, p, pre)
					} else {
						g = newPgParallel(sl, p, pre)
					}
					got := pgAll(g)
					pgCheckSame(t, fmt.Sprintf("%s %v p=%d prefix %s", kind, ks, p, pre), got, want)
					checked += len(got)
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d schedules checked", checked)
	}
}

// Within a pattern, count vectors come in decreasing lexicographic order;
// patterns in increasing lexicographic order.
func TestPeriodGenSerialOrder(t *testing.T) {
	for _, ks := range pgTestSlices {
		sl := pgTestSlice(ks...)
		for p := 1; p <= 7; p++ {
			g := newPgSerial(sl, p, pgPrefix{})
			var prevPat, prevCnt []int
			for {
				s, ok := g.next()
				if !ok {
					break
				}
				var pat, cnt []int
				for _, per := range s {
					pat = append(pat, int(per[0].T))
					cnt = append(cnt, per[0].N)
				}
				if prevPat != nil {
					c := pgCmp(prevPat, pat)
					if c > 0 || (c == 0 && pgCmp(prevCnt, cnt) <= 0) {
						t.Fatalf("%v p=%d: %v %v after %v %v", ks, p, pat, cnt, prevPat, prevCnt)
					}
				}
				prevPat, prevCnt = pat, cnt
			}
		}
	}
}

func pgCmp(a, b []int) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// The serial generator skips the pairs that break a rule at some position
// together with every pair after them that keeps the counts up to there:
// what it returns is the plain filter of all pairs, in the same order, for
// random slices with cut places, creators and literal prefixes.
func TestPeriodGenSkipEqualsFilter(t *testing.T) {
	rng := SplitMix{S: 7}
	compared := 0
	for trial := 0; trial < 3000; trial++ {
		n := 2 + rng.Intn(2)
		k := make([]int, n)
		var cut [][]bool
		par, born := make([]int, n), make([]int, n)
		for i := range k {
			k[i] = 1 + rng.Intn(9)
			par[i] = -1
		}
		if rng.Intn(3) > 0 {
			cut = make([][]bool, n)
			for i := range cut {
				cut[i] = make([]bool, k[i]+1)
				for j := range cut[i] {
					cut[i][j] = rng.Intn(3) == 0
				}
			}
		}
		usePar := rng.Intn(2) == 0
		if usePar {
			for i := 1; i < n; i++ {
				par[i] = rng.Intn(i)
				born[i] = 1 + rng.Intn(k[par[i]])
			}
		}
		p := 1 + rng.Intn(5)
		var fixT, fixN []int
		if rng.Intn(4) == 0 && p > 1 {
			fixT = []int{rng.Intn(n)}
			if rng.Intn(2) == 0 {
				fixN = []int{1 + rng.Intn(k[fixT[0]])}
			}
		}
		mk := func() *pgSerialGen {
			g := newPgSerialGen(k, p, fixT, fixN)
			g.cut = cut
			if usePar {
				g.par, g.born = par, born
			}
			return g
		}
		var got, want []string
		g := mk()
		for {
			pat, cnt, ok := g.nextRaw()
			if !ok {
				break
			}
			got = append(got, fmt.Sprint(pat, cnt))
		}
		ref := mk()
		for {
			pat, cnt, ok := ref.nextVec()
			if !ok {
				break
			}
			if (ref.cut == nil || ref.cutsOK()) && (ref.par == nil || ref.bornOK()) {
				want = append(want, fmt.Sprint(pat, cnt))
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("k=%v p=%d cut=%v par=%v born=%v fix=%v/%v:\n got %v\nwant %v", k, p, cut, par, born, fixT, fixN, got, want)
		}
		compared += len(want)
	}
	if compared < 1000 {
		t.Fatalf("only %d pairs compared", compared)
	}
}
