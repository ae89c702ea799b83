//go:build go1.21

package strategy

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// A period whose owner does not exist yet is led by the owner's nearest
// existing ancestor; an owner that existed and is now absent (blocked or
// exited) completes its period. Leads stay out of the effective schedule.
func TestPeriodAncestorLead(t *testing.T) {
	s := newPeriod("period", false, Options{Seed: 1})
	s.paths = []string{"0", "0.1", "0.1.1"}
	s.pathID = map[string]GID{"0": 0, "0.1": 1, "0.1.1": 2}
	s.start(pgSched(pgOne(2, 1), pgOne(0, 1), pgPeriod{{0, 1}, {1, 1}, {2, 1}}), nil)
	steps := []struct {
		en   []Event
		want GID
	}{
		{pgEv(0), 0},    // t2's grandparent leads: t1 does not exist either
		{pgEv(0, 1), 1}, // t1 exists: it leads
		{pgEv(0, 1, 2), 2},
		{pgEv(0, 1), 0}, // t2 existed and is gone: its period is complete
	}
	for i, st := range steps {
		if got := st.en[s.Next(st.en)].G; got != st.want {
			t.Fatalf("step %d: picked t%d, want t%d", i, got, st.want)
		}
	}
	if eff := pgEffective(s.picks, 3).String(); eff != "<{t2},{t0}>" {
		t.Fatalf("effective schedule %s, want <{t2},{t0}> (leads left out)", eff)
	}
	// A creator that is blocked cannot lead: the period is complete.
	s.start(pgSched(pgOne(2, 1), pgPeriod{{0, 1}, {2, 1}}), nil)
	s.seen = append(s.seen[:0], true, true) // t0 and t1 exist, t1 is blocked
	if got := s.Next(pgEv(0)); got != 0 || s.per != 1 {
		t.Fatalf("picked %d in period %d, want t0 in the last period", got, s.per)
	}
}

// Combinations taking the first members of each class of interchangeable
// threads are canonical; the others are not.
func TestPeriodCanonical(t *testing.T) {
	sl := pgSlice{T: []GID{0, 1, 2, 3, 4}, K: []int{1, 1, 1, 1, 1}, C: []int{0, 1, 1, 1, 4}}
	for _, c := range []struct {
		comb []int
		want bool
	}{
		{[]int{0}, true}, {[]int{1}, true}, {[]int{2}, false}, {[]int{1, 2}, true},
		{[]int{1, 3}, false}, {[]int{0, 1, 4}, true}, {[]int{2, 4}, false}, {[]int{1, 2, 3}, true},
	} {
		if got := sl.canonical(c.comb); got != c.want {
			t.Errorf("canonical(%v) = %v, want %v", c.comb, got, c.want)
		}
	}
	// The canonical and the other combinations split the parallel schedules.
	all := pgAll(newPgParallel(sl, 3, pgPrefix{}))
	can := pgAll(newPgParallelSym(sl, 3, pgPrefix{}, symCanonical))
	oth := pgAll(newPgParallelSym(sl, 3, pgPrefix{}, symOthers))
	if len(can)+len(oth) != len(all) || len(can) == 0 || len(oth) == 0 {
		t.Fatalf("%d canonical + %d others, %d in all", len(can), len(oth), len(all))
	}
	seen := map[string]bool{}
	for _, s := range append(can, oth...) {
		seen[s] = true
	}
	for _, s := range all {
		if !seen[s] {
			t.Fatalf("%v lost by the split", s)
		}
	}
}

// Periods end only where the thread may be cut (before a key point another
// thread can observe), except where the prefix fixed the count.
func TestPeriodCuts(t *testing.T) {
	sl := pgSlice{T: []GID{0, 1}, K: []int{3, 1}}
	free := pgAll(newPgSerial(sl, 3, pgPrefix{}))
	sl.Cut = [][]bool{{false, false, true}, {false}} // t0 may stop only after two key points
	cut := pgAll(newPgSerial(sl, 3, pgPrefix{}))
	if len(free) != 2 || len(cut) != 1 || cut[0] != "<{t0,t0},{t1},{t0}>" {
		t.Fatalf("free %v, cut %v", free, cut)
	}
	lit := pgAll(newPgSerial(sl, 3, pgPrefix{Lit: []pgSlot{{0, 1}}}))
	if len(lit) != 1 || lit[0] != "<{t0},{t1},{t0,t0}>" {
		t.Fatalf("with a literal count: %v", lit)
	}

	// From a run: t0 starts t1 and t2 after writing 7, which t1 reads; t1
	// then reads 8, which t2 writes, and 6, which nobody writes.
	r := &Run{Paths: []string{"0", "0.1", "0.2"}, Born: map[GID]int{1: 2, 2: 2}, Events: []Event{
		{G: 0, Op: OpStart}, {G: 0, Op: OpWrite, Obj: 7},
		{G: 1, Op: OpStart}, {G: 1, Op: OpRead, Obj: 7}, {G: 1, Op: OpRead, Obj: 8}, {G: 1, Op: OpRead, Obj: 6},
		{G: 2, Op: OpStart}, {G: 2, Op: OpWrite, Obj: 8}, {G: 2, Op: OpWGAdd, Obj: 5},
		{G: 0, Op: OpWGWait, Obj: 5},
	}}
	rs := pgCounts(map[GID]int{0: 3, 1: 4, 2: 3})
	got := pgCuts(rs, r, map[string]GID{"0": 0, "0.1": 1, "0.2": 2})
	want := [][]bool{
		{false, false, true}, // t0 is alone before its write: nobody could run there
		{false, true, true, false},
		{false, true, true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cuts %v, want %v", got, want)
	}
}

// A thread's first period must come after its creator ran the key points
// that start it, when the creator has periods of its own.
func TestPeriodBorn(t *testing.T) {
	sl := pgSlice{T: []GID{0, 1}, K: []int{3, 2}, Par: []int{-1, 0}, Born: []int{0, 2}}
	got := pgAll(newPgSerial(sl, 3, pgPrefix{}))
	// <{t0},{t1,t1},{t0,t0}> would start t1 before t0 created it; <{t1},{t0..},{t1}> too.
	want := []string{"<{t0,t0},{t1,t1},{t0}>"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("schedules %v, want %v", got, want)
	}
	// The parallel generator drops exactly the schedules that start a
	// child before its creator, when the creator has periods of its own.
	base := pgSlice{T: []GID{0, 1, 2}, K: []int{3, 1, 1}}
	all := pgAll(newPgParallel(base, 3, pgPrefix{}))
	base.Par, base.Born = []int{-1, 0, 0}, []int{0, 2, 2}
	kept := map[string]bool{}
	for _, s := range pgAll(newPgParallel(base, 3, pgPrefix{})) {
		kept[s] = true
	}
	dropped := 0
	for _, s := range all {
		if !kept[s] {
			dropped++
			if !strings.HasPrefix(s, "<{t1}") && !strings.HasPrefix(s, "<{t2}") && !strings.HasPrefix(s, "<{t0},") {
				t.Errorf("%s dropped, but no child runs before its creator started it", s)
			}
		}
	}
	if dropped == 0 || len(kept)+dropped != len(all) {
		t.Fatalf("%d of %d parallel schedules dropped, %d kept", dropped, len(all), len(kept))
	}
}

// A job whose slice another job's slice supports, with a prefix that job's
// admits, is covered; of two equal jobs the earlier stays.
func TestPeriodCovered(t *testing.T) {
	small := pgCounts(map[GID]int{0: 1, 1: 1})
	big := pgCounts(map[GID]int{0: 3, 1: 2})
	l := pgJobList{}
	l.update("small", small, pgPrefix{Pat: 0, HasPat: true})
	l.update("big", big, pgPrefix{})
	l.update("big2", big, pgPrefix{})
	if !l.covered(0) || l.covered(1) || !l.covered(2) {
		t.Fatalf("covered: %v %v %v, want true false true", l.covered(0), l.covered(1), l.covered(2))
	}
	l = pgJobList{}
	l.update("small", small, pgPrefix{})
	l.update("big", big, pgPrefix{Pat: 1, HasPat: true}) // admits fewer schedules
	if l.covered(0) {
		t.Fatal("a job with a stricter prefix covers one without")
	}
}

// The canonical combinations generated directly are those nextComb visits
// that canonical accepts, in the same order, and isCanonical agrees with
// canonical; so the schedules, and their order, are those of the filter.
func TestPeriodCanonicalGeneratedInOrder(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.Intn(9)
		sl := pgSlice{C: make([]int, n)}
		class := make([]int, n)
		for i := range class {
			sl.T, sl.K = append(sl.T, GID(i)), append(sl.K, 1)
			class[i] = i
			if j := r.Intn(i + 1); j < i && r.Intn(3) > 0 {
				class[i] = class[j] // same class as an earlier thread
			}
		}
		// A class is named by one of its members: the first, or (as after
		// rootLast moved the root to the end) another.
		rep := map[int]int{}
		for i, c := range class {
			if _, ok := rep[c]; !ok || r.Intn(4) == 0 {
				rep[c] = i
			}
		}
		for i, c := range class {
			sl.C[i] = rep[c]
		}
		p := 1 + r.Intn(4)
		filter := &pgParallel{sl: sl, p: p}
		var want [][]int
		for filter.nextComb() {
			if sl.canonical(filter.comb) != filter.isCanonical() {
				t.Fatalf("classes %v: canonical(%v) = %v, isCanonical %v", sl.C, filter.comb, sl.canonical(filter.comb), filter.isCanonical())
			}
			if sl.canonical(filter.comb) {
				want = append(want, append([]int(nil), filter.comb...))
			}
		}
		direct := &pgParallel{sl: sl, p: p}
		var got [][]int
		for direct.nextCanonical() {
			got = append(got, append([]int(nil), direct.comb...))
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("classes %v, p %d: generated %v, filtered %v", sl.C, p, got, want)
		}
	}
}

// canonical reports whether a combination (sorted thread indices) takes
// the first members of each class of interchangeable threads, by the
// definition: the reference nextCanonical and isCanonical are checked
// against.
func (s pgSlice) canonical(comb []int) bool {
	if s.C == nil {
		return true
	}
	in := make(map[int]bool, len(comb))
	for _, i := range comb {
		in[i] = true
	}
	for _, i := range comb {
		for j := s.C[i]; j < i; j++ {
			if s.C[j] == s.C[i] && !in[j] {
				return false
			}
		}
	}
	return true
}
