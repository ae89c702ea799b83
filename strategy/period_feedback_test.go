//go:build go1.21

package strategy

import (
	"reflect"
	"testing"
)

func pgSched(pers ...pgPeriod) pgSchedule { return pgSchedule(pers) }

func pgOne(t GID, n int) pgPeriod { return pgPeriod{{t, n}} }

func TestPeriodSupported(t *testing.T) {
	s3 := pgCounts(map[GID]int{0: 7, 1: 8})
	cases := []struct {
		a    map[GID]int
		want bool
	}{
		{map[GID]int{0: 5, 1: 2}, true}, // the paper's s4 is supported by s3: fewer key points
		{map[GID]int{0: 7, 1: 8}, true},
		{map[GID]int{0: 8, 1: 1}, false},
		{map[GID]int{0: 1, 2: 1}, false}, // a thread s3 does not have
	}
	for _, c := range cases {
		if got := pgSupported(pgCounts(c.a), s3); got != c.want {
			t.Errorf("supported(%v, s3) = %v", c.a, got)
		}
	}
}

// Cases from the paper's walkthrough (section 2.2 and 3.4).
func TestPeriodGetPrefix(t *testing.T) {
	cases := []struct {
		s, prev pgSchedule
		want    string
	}{
		// The first schedule <{t0},{t1}> is compared with the empty one: the
		// new slice s1 gets the prefix <[t0]>.
		{pgSched(pgOne(0, 1), pgOne(1, 1)), nil, "<[t0]>"},
		// <{t1},{t0}> after <{t0},{t1}>: s2 gets <[t1]>.
		{pgSched(pgOne(1, 1), pgOne(0, 1)), pgSched(pgOne(0, 1), pgOne(1, 1)), "<[t1]>"},
		// The fifth key point is t1 where the previous schedule had t0: keep
		// the four t0 before it and add [t1].
		{pgSched(pgOne(0, 4), pgOne(1, 2), pgOne(0, 3)), pgSched(pgOne(0, 5), pgOne(1, 1), pgOne(0, 3)), "<{t0^4},[t1]>"},
		// The ninth key point differs (t1 against t0): three literal periods.
		{pgSched(pgOne(0, 4), pgOne(1, 3), pgOne(0, 1), pgOne(1, 1)), pgSched(pgOne(0, 4), pgOne(1, 3), pgOne(0, 2), pgOne(1, 1)), "<{t0^4},{t1,t1,t1},{t0},[t1]>"},
		// A difference in a multi-thread last period names its thread.
		{pgSched(pgOne(1, 1), pgPeriod{{0, 2}, {2, 3}}), pgSched(pgOne(1, 1), pgPeriod{{0, 1}, {2, 4}}), "<{t1},[t0]>"},
		{pgSched(pgOne(1, 1), pgPeriod{{0, 1}, {2, 4}}), pgSched(pgOne(1, 1), pgPeriod{{0, 1}, {1, 1}, {2, 3}}), "<{t1},[t2]>"},
		// No difference: the last period of s plays the part.
		{pgSched(pgOne(0, 1), pgOne(1, 1)), pgSched(pgOne(0, 1), pgOne(1, 1)), "<{t0},[t1]>"},
	}
	for _, c := range cases {
		if got := pgGetPrefix(c.s, c.prev).String(); got != c.want {
			t.Errorf("getPrefix(%v, %v) = %s, want %s", c.s, c.prev, got, c.want)
		}
	}
}

func TestPeriodCommonPrefix(t *testing.T) {
	p := func(pat GID, lit ...pgSlot) pgPrefix { return pgPrefix{Lit: lit, Pat: pat, HasPat: true} }
	cases := []struct {
		a, b pgPrefix
		want string
	}{
		{p(1, pgSlot{0, 4}), p(0, pgSlot{0, 4}, pgSlot{1, 1}), "<{t0^4},[t1]>"},
		{p(1, pgSlot{0, 4}), p(1, pgSlot{0, 5}), "<[t0]>"},
		{p(0), p(1), "<>"},
		{p(1, pgSlot{0, 2}), p(1, pgSlot{0, 2}), "<{t0,t0},[t1]>"},
		{pgPrefix{}, p(1), "<>"},
	}
	for _, c := range cases {
		if got := pgCommonPrefix(c.a, c.b).String(); got != c.want {
			t.Errorf("common(%s, %s) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

func TestPeriodUpdateJobs(t *testing.T) {
	var l pgJobList
	s3 := pgCounts(map[GID]int{0: 7, 1: 8})
	l.update("s3", s3, pgPrefix{Lit: []pgSlot{{0, 4}}, Pat: 1, HasPat: true})
	l.update("s4", pgCounts(map[GID]int{0: 9, 1: 8}), pgPrefix{Pat: 0, HasPat: true})
	// s3 found again through another prefix: one job, the common prefix.
	l.update("s3", s3, pgPrefix{Lit: []pgSlot{{0, 4}, {1, 1}}, Pat: 0, HasPat: true})
	if len(l.jobs) != 2 || l.jobs[0].key != "s3" || l.jobs[1].key != "s4" {
		t.Fatalf("jobs %v", l.jobs)
	}
	if got := l.jobs[0].pre.String(); got != "<{t0^4},[t1]>" {
		t.Fatalf("s3 prefix %s", got)
	}
	// A finished slice makes no job again.
	l.remove(1)
	l.update("s4", pgCounts(map[GID]int{0: 9, 1: 8}), pgPrefix{})
	if len(l.jobs) != 1 {
		t.Fatalf("finished slice came back: %v", l.jobs)
	}
}

func pgEv(gs ...GID) []Event {
	var es []Event
	for _, g := range gs {
		es = append(es, Event{G: g, Op: OpWrite})
	}
	return es
}

// The executor: quotas, unlimited quota in a thread's last period, periods
// completed by an absent owner, threads outside the schedule in the last one.
func TestPeriodExecutor(t *testing.T) {
	s := newPeriod("period", false, Options{Seed: 1})
	s.start(pgSched(pgOne(0, 1), pgOne(1, 2), pgOne(0, 1), pgPeriod{{1, 1}, {2, 1}}), nil)
	steps := []struct {
		en   []Event
		want GID
	}{
		{pgEv(0, 1, 2), 0}, // period 1: t0 once
		{pgEv(0, 1, 2), 1}, // period 2: t1 twice
		{pgEv(0, 1, 2), 1},
		{pgEv(0, 2), 0}, // period 3: t0's last, unlimited
		{pgEv(0, 2), 0},
		{pgEv(0, 2), 0},
		{pgEv(2), 2}, // t0 blocked: the last period
	}
	for i, st := range steps {
		if got := st.en[s.Next(st.en)].G; got != st.want {
			t.Fatalf("step %d: picked t%d, want t%d", i, got, st.want)
		}
	}
	if s.per != 3 {
		t.Fatalf("in period %d, want the last (3)", s.per)
	}
	// An owner absent from the start skips its period.
	s.start(pgSched(pgOne(5, 1), pgOne(0, 1), pgPeriod{{0, 1}, {1, 1}}), nil)
	if got := s.Next(pgEv(0, 1)); got != 0 || s.per != 1 {
		t.Fatalf("picked %d in period %d, want t0 in period 1", got, s.per)
	}
	eff := pgEffective(s.picks, 3).String()
	if eff != "<{t0}>" {
		t.Fatalf("effective schedule %s", eff)
	}
}

// The last period is serialized by the run's PRNG: every enabled thread
// gets picked at some point, and the same seed and run give the same picks.
func TestPeriodLastPeriodPRNG(t *testing.T) {
	picks := func(seed int64) []GID {
		s := newPeriod("period", false, Options{Seed: seed})
		s.start(pgSched(pgPeriod{{0, 1}, {1, 1}, {2, 1}}), nil)
		var out []GID
		for i := 0; i < 60; i++ {
			en := pgEv(0, 1, 2)
			out = append(out, en[s.Next(en)].G)
		}
		return out
	}
	a, b, c := picks(7), picks(7), picks(8)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different picks")
	}
	if reflect.DeepEqual(a, c) {
		t.Fatal("different seeds, same 60 picks")
	}
	seen := map[GID]bool{}
	for _, g := range a {
		seen[g] = true
	}
	if len(seen) != 3 {
		t.Fatalf("only %v picked", seen)
	}
	// period-serial keeps R1: the owner, then the lowest GID.
	s := newPeriod("period-serial", true, Options{Seed: 7})
	s.start(pgSched(pgOne(0, 1), pgOne(2, 1)), nil)
	for _, want := range []GID{0, 2, 2, 1} {
		en := pgEv(0, 1, 2)
		if want != 0 {
			en = pgEv(1, 2)
		}
		if want == 1 {
			en = pgEv(1)
		}
		if got := en[s.Next(en)].G; got != want {
			t.Fatalf("serial last period picked t%d, want t%d", got, want)
		}
	}
}

// pgDrive runs one schedule of a fake program whose threads execute the
// given events when picked (each event enabled alone, in order).
func pgDrive(s *pgStrategy, paths []string, evs []Event) bool {
	if !s.Begin() {
		return false
	}
	for _, e := range evs {
		s.Next([]Event{e})
	}
	s.End(&Run{Events: evs, Paths: paths})
	return true
}

// A checkpoint names threads by path: restored in a process that numbers
// the paths differently, the jobs follow their threads.
func TestPeriodCheckpointRenumbered(t *testing.T) {
	evs := func(a, b GID) []Event {
		return []Event{{G: 0, Site: "x"}, {G: a, Site: "a1"}, {G: a, Site: "a2"}, {G: b, Site: "b1"}, {G: b, Site: "b2"}, {G: b, Site: "b3"}}
	}
	s := newPeriod("period", false, Options{Seed: 1})
	pgDrive(s, []string{"0", "0.1", "0.2"}, evs(1, 2))
	cp := s.Checkpoint()
	r := newPeriod("period", false, Options{Seed: 1})
	if err := r.Restore(cp); err != nil {
		t.Fatal(err)
	}
	// The new process numbers 0.2 before 0.1.
	pgDrive(r, []string{"0", "0.2", "0.1"}, evs(2, 1))
	var job *pgJob
	for _, j := range r.list.jobs {
		if j.key == s.list.jobs[1].key {
			job = j
		}
	}
	if job == nil {
		t.Fatalf("job lost: %v", r.list.jobs)
	}
	want := pgCounts(map[GID]int{0: 1, 2: 2, 1: 3})                     // 0.1 (now t2) has two key points, 0.2 (now t1) three
	want.C = []int{0, 1, 2}                                             // three different threads
	want.Cut = [][]bool{{false}, {false, false, false}, {false, false}} // no objects: no cut inside a thread, each thread's own length
	if !reflect.DeepEqual(job.sl, want) {
		t.Fatalf("restored slice %v, want %v", job.sl, want)
	}
	// The same slice, seen under the new numbering, is recognised.
	if len(r.list.jobs) != len(s.list.jobs) {
		t.Fatalf("%d jobs after restore, %d before", len(r.list.jobs), len(s.list.jobs))
	}
}
