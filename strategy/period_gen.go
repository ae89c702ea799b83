//go:build go1.21

package strategy

import (
	"sort"
	"strconv"
	"strings"
)

// This file holds PERIOD's schedule generators (Wen et al., "Controlled
// Concurrency Testing via Periodical Scheduling", ICSE 2022, section 3.2):
// the serialized generator (rules R1-R4) and the parallel one (R1 relaxed
// for the last period). Both are lazy iterators: the schedule space of a
// slice explodes with its size, and the exploration loop only ever needs
// the next schedule.

// pgSlot is N key points of thread T inside one period.
type pgSlot struct {
	T GID
	N int
}

// pgPeriod lists what one period hosts, sorted by thread. Every period but
// the last one of a parallel schedule has exactly one slot.
type pgPeriod []pgSlot

// pgSchedule is a sequence of periods.
type pgSchedule []pgPeriod

// String writes the schedule exactly, in the paper's notation: a thread is
// repeated once per key point (t^n beyond three, like the paper's tx^n).
func (s pgSchedule) String() string { return s.format(false) }

// format writes the schedule; open marks the last period with "..", the
// notation Describe uses: the last period is unbounded and also hosts every
// thread the schedule does not name.
func (s pgSchedule) format(open bool) string {
	var b strings.Builder
	b.WriteString("<")
	for i, per := range s {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("{")
		last := open && i == len(s)-1
		for j, sl := range per {
			if j > 0 {
				b.WriteString(",")
			}
			t := "t" + strconv.Itoa(int(sl.T))
			switch {
			case last:
				b.WriteString(t)
			case sl.N > 3:
				b.WriteString(t + "^" + strconv.Itoa(sl.N))
			default:
				for k := 0; k < sl.N; k++ {
					if k > 0 {
						b.WriteString(",")
					}
					b.WriteString(t)
				}
			}
		}
		if last {
			b.WriteString("..")
		}
		b.WriteString("}")
	}
	b.WriteString(">")
	return b.String()
}

// expand lists the thread of every key point of s in order, the threads of
// a multi-thread period in thread order (the paper writes the uncontrolled
// last period in lexicographic order too).
func (s pgSchedule) expand() []GID {
	var ks []GID
	for _, per := range s {
		for _, sl := range per {
			for k := 0; k < sl.N; k++ {
				ks = append(ks, sl.T)
			}
		}
	}
	return ks
}

// pgSlice is the generators' view of a dynamic key point slice: the number
// of key points of each thread, threads sorted, every count at least one.
// C, when set, groups interchangeable threads: C[i] is the index of the
// first thread that ran the same key point sites as thread i (see pgParallel).
// Cut, when set, tells where a period may end inside a thread: Cut[i][c]
// is false when thread i's key point c+1 conflicts with no other thread's,
// so ending a period after c of its key points would change nothing that
// another thread can observe (a period that ends there is the same as one
// that ends at the next visible key point).
//
// Par and Born, when set, tell who starts whom: Par[i] is the index of
// thread i's creator in the slice (-1: none), Born[i] how many key points
// the creator had run when it started thread i.
type pgSlice struct {
	T    []GID
	K    []int
	C    []int
	Cut  [][]bool
	Par  []int
	Born []int
}

// symmetric reports whether some threads of the slice are interchangeable.
func (s pgSlice) symmetric() bool {
	for i, c := range s.C {
		if c != i {
			return true
		}
	}
	return false
}

// pgCounts converts per-thread counts into a pgSlice (dropping zeros).
func pgCounts(m map[GID]int) pgSlice {
	var s pgSlice
	for t, k := range m {
		if k > 0 {
			s.T = append(s.T, t)
		}
	}
	sort.Slice(s.T, func(i, j int) bool { return s.T[i] < s.T[j] })
	for _, t := range s.T {
		s.K = append(s.K, m[t])
	}
	return s
}

func (s pgSlice) index(t GID) int {
	for i, u := range s.T {
		if u == t {
			return i
		}
	}
	return -1
}

// pgPrefix is a schedule prefix: literal single-thread periods, then
// (if HasPat) a pattern period [Pat] whose length is free. A schedule
// satisfies it if its first periods equal Lit and its next period belongs to
// Pat; when that next period is the uncontrolled last one, it must contain
// Pat.
type pgPrefix struct {
	Lit    []pgSlot
	Pat    GID
	HasPat bool
}

func (x pgPrefix) String() string {
	var s pgSchedule
	for _, l := range x.Lit {
		s = append(s, pgPeriod{l})
	}
	str := s.String()
	str = str[:len(str)-1]
	if x.HasPat {
		if len(x.Lit) > 0 {
			str += ","
		}
		str += "[t" + strconv.Itoa(int(x.Pat)) + "]"
	}
	return str + ">"
}

// len is the number of periods the prefix constrains.
func (x pgPrefix) len() int {
	if x.HasPat {
		return len(x.Lit) + 1
	}
	return len(x.Lit)
}

// satisfiedBy reports whether schedule s satisfies the prefix.
func (x pgPrefix) satisfiedBy(s pgSchedule) bool {
	if x.len() > len(s) {
		return false
	}
	for i, l := range x.Lit {
		if len(s[i]) != 1 || s[i][0] != l {
			return false
		}
	}
	if !x.HasPat {
		return true
	}
	per := s[len(x.Lit)]
	if len(x.Lit) == len(s)-1 {
		for _, sl := range per {
			if sl.T == x.Pat {
				return true
			}
		}
		return false
	}
	return len(per) == 1 && per[0].T == x.Pat
}

// pgGen iterates over schedules lazily.
type pgGen interface {
	next() (pgSchedule, bool)
}

// pgSerialGen enumerates the serialized schedules of a slice with p periods
// (R1: one thread a period; R2: adjacent periods differ; R3: no empty
// period; R4: every key point placed) satisfying a prefix. Order: patterns
// in lexicographic order of thread indices; for each pattern, the count
// vectors in decreasing lexicographic order, so earlier periods get their
// spare key points first (this reproduces the paper's worked example).
//
// The iterator is an odometer over two vectors: pat (thread index of each
// period) and cnt (key points of each period). The first nfix positions of
// pat and the first nlit of cnt are fixed by the prefix. An exact
// feasibility test keeps the odometer from entering dead ends.
type pgSerialGen struct {
	k       []int
	cut     [][]bool // optional: where a thread's period may end (see pgSlice)
	par     []int    // optional: creators and their key points at creation (see pgSlice)
	born    []int
	scratch []int // zeroed
	p       int
	pat     []int
	cnt     []int
	nfix    int
	nlit    int
	started bool
	done    bool
}

// newPgSerialGen builds the iterator; fixT are the thread indices fixed at
// the first positions, fixN the fixed counts of the first positions.
func newPgSerialGen(k []int, p int, fixT, fixN []int) *pgSerialGen {
	g := &pgSerialGen{k: k, p: p, pat: make([]int, p), cnt: make([]int, p), nfix: len(fixT), nlit: len(fixN)}
	if p < 1 || len(fixT) > p || len(fixN) > len(fixT) {
		g.done = true
		return g
	}
	copy(g.pat, fixT)
	copy(g.cnt, fixN)
	return g
}

// used counts the occurrences of each thread in pat[:pos].
func (g *pgSerialGen) used(pos int) []int {
	u := make([]int, len(g.k))
	for _, t := range g.pat[:pos] {
		u[t]++
	}
	return u
}

// feasible reports whether pat[pos:] can be completed given pat[:pos]: every
// unused thread needs a period, no thread more periods than key points, and
// the counts must be arrangeable without two equal neighbours (a thread
// fits at most ceil(r/2) of r positions, floor(r/2) if it owns pat[pos-1]).
func (g *pgSerialGen) feasible(pos int) bool {
	u := g.used(pos)
	r := g.p - pos
	prev := -1
	if pos > 0 {
		prev = g.pat[pos-1]
	}
	lo, hi := 0, 0
	for t, k := range g.k {
		c := k - u[t]
		if c < 0 {
			return false
		}
		b := (r + 1) / 2
		if t == prev {
			b = r / 2
		}
		if c > b {
			c = b
		}
		need := 0
		if u[t] == 0 {
			need = 1
		}
		if need > c {
			return false
		}
		lo += need
		hi += c
	}
	return lo <= r && r <= hi
}

// fill sets pat[pos:] to the smallest feasible completion.
func (g *pgSerialGen) fill(pos int) bool {
	for i := pos; i < g.p; i++ {
		ok := false
		u := g.used(i)
		for t := range g.k {
			if (i > 0 && t == g.pat[i-1]) || u[t] >= g.k[t] {
				continue
			}
			g.pat[i] = t
			if g.feasible(i + 1) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// nextPattern advances pat to the next feasible pattern.
func (g *pgSerialGen) nextPattern() bool {
	for i := g.p - 1; i >= g.nfix; i-- {
		u := g.used(i)
		for t := g.pat[i] + 1; t < len(g.k); t++ {
			if (i > 0 && t == g.pat[i-1]) || u[t] >= g.k[t] {
				continue
			}
			g.pat[i] = t
			if g.feasible(i+1) && g.fill(i+1) {
				return true
			}
		}
	}
	return false
}

// later counts the occurrences of pat[i]'s thread after position i.
func (g *pgSerialGen) later(i int) int {
	n := 0
	for _, t := range g.pat[i+1:] {
		if t == g.pat[i] {
			n++
		}
	}
	return n
}

// fillCounts sets cnt[pos:] to the largest counts, checking the fixed
// counts of the literal positions on the way.
func (g *pgSerialGen) fillCounts(pos int) bool {
	rem := append([]int(nil), g.k...)
	for i := 0; i < pos; i++ {
		rem[g.pat[i]] -= g.cnt[i]
	}
	for i := pos; i < g.p; i++ {
		t := g.pat[i]
		l := g.later(i)
		max := rem[t] - l
		if i < g.nlit {
			if g.cnt[i] < 1 || g.cnt[i] > max || (l == 0 && g.cnt[i] != max) {
				return false
			}
		} else {
			if max < 1 {
				return false
			}
			g.cnt[i] = max
		}
		rem[t] -= g.cnt[i]
	}
	return true
}

// nextCounts moves one key point of the rightmost movable period to a later
// period of the same thread.
func (g *pgSerialGen) nextCounts() bool {
	for i := g.p - 1; i >= g.nlit; i-- {
		if g.cnt[i] > 1 && g.later(i) > 0 {
			g.cnt[i]--
			return g.fillCounts(i + 1)
		}
	}
	return false
}

// nextRaw returns the next (pattern, counts) pair whose periods end only
// where a thread may be cut and whose threads start after their creators
// ran; the slices are reused. A pair that breaks a rule at position j is
// followed, in the generator's order, by every pair with the same counts
// up to j, all broken the same way: they are skipped at once, so a slice
// of 60,000 key points that may be cut at a few places only does not make
// the generator try them one by one (tidwall/redcon's TestRandomCommands
// spent minutes in one Begin). The pairs returned are those of the
// filtered sequence, in the same order (TestPeriodGenSkipEqualsFilter).
func (g *pgSerialGen) nextRaw() ([]int, []int, bool) {
	pat, cnt, ok := g.nextVec()
	for ok {
		j, bad := g.firstBad()
		if !bad {
			return pat, cnt, true
		}
		if g.nextCountsUpTo(j) {
			continue
		}
		pat, cnt, ok = g.nextPatternVec()
	}
	return nil, nil, false
}

// firstBad tells whether the pair breaks cutsOK or bornOK, and the first
// position whose counts up to it decide so (-1: the pattern alone does).
func (g *pgSerialGen) firstBad() (int, bool) {
	j, bad := g.p, false
	if g.cut != nil {
		if b, ok := g.badCut(); ok {
			j, bad = b, true
		}
	}
	if g.par != nil {
		if b, ok := g.badBorn(); ok && b < j {
			j, bad = b, true
		}
	}
	return j, bad
}

// nextCountsUpTo is nextCounts restricted to positions up to j: the next
// pair, in order, whose counts differ somewhere at or before j.
func (g *pgSerialGen) nextCountsUpTo(j int) bool {
	for i := min(j, g.p-1); i >= g.nlit; i-- {
		if g.cnt[i] > 1 && g.later(i) > 0 {
			g.cnt[i]--
			return g.fillCounts(i + 1)
		}
	}
	return false
}

// zeroed returns a reused vector of zero counts, one per thread.
func (g *pgSerialGen) zeroed() []int {
	if cap(g.scratch) < len(g.k) {
		g.scratch = make([]int, len(g.k))
	}
	c := g.scratch[:len(g.k)]
	clear(c)
	return c
}

// cutsOK reports whether every period but a thread's last ends at a place
// where the thread may be cut. Counts fixed by the prefix come from a run
// and stay as they are.
func (g *pgSerialGen) cutsOK() bool {
	_, bad := g.badCut()
	return !bad
}

// badCut is the first period that ends where its thread may not be cut;
// it depends on the counts up to it.
func (g *pgSerialGen) badCut() (int, bool) {
	cum := g.zeroed()
	for i, t := range g.pat {
		cum[t] += g.cnt[i]
		if c := g.cut[t]; c != nil && i >= g.nlit && cum[t] < g.k[t] && cum[t] < len(c) && !c[cum[t]] {
			return i, true
		}
	}
	return 0, false
}

// bornOK reports whether every thread's first period (but the last
// period, where everybody runs) comes after its creator, when the creator
// has periods, has run the key points it runs before starting it. Other
// schedules cannot run as written: the owner does not exist yet, so its
// creator leads (see pgStrategy.ancestor) and the run is the same as that of
// a schedule that gives the creator those key points, or none at all.
func (g *pgSerialGen) bornOK() bool {
	_, bad := g.badBorn()
	return !bad
}

// badBorn tells whether bornOK fails, and the last position whose counts
// decide it: a thread's first period at i is checked against the counts
// before i, so the position is i-1.
func (g *pgSerialGen) badBorn() (int, bool) {
	cum := g.zeroed()
	for i, t := range g.pat[:g.p-1] {
		if cum[t] == 0 && i >= g.nlit {
			if a := g.par[t]; a >= 0 && cum[a] < g.born[t] {
				return i - 1, true
			}
		}
		cum[t] += g.cnt[i]
	}
	return 0, false
}

// nextVec returns the next (pattern, counts) pair.
func (g *pgSerialGen) nextVec() ([]int, []int, bool) {
	if g.done {
		return nil, nil, false
	}
	if !g.started {
		g.started = true
		for i := 0; i < g.nfix; i++ {
			if g.pat[i] < 0 || g.pat[i] >= len(g.k) || (i > 0 && g.pat[i] == g.pat[i-1]) {
				g.done = true
				return nil, nil, false
			}
		}
		if !g.feasible(g.nfix) || !g.fill(g.nfix) {
			g.done = true
			return nil, nil, false
		}
		if g.fillCounts(0) {
			return g.pat, g.cnt, true
		}
	} else if g.nextCounts() {
		return g.pat, g.cnt, true
	}
	return g.nextPatternVec()
}

// nextPatternVec returns the first pair of the next pattern.
func (g *pgSerialGen) nextPatternVec() ([]int, []int, bool) {
	for g.nextPattern() {
		if g.fillCounts(0) {
			return g.pat, g.cnt, true
		}
	}
	g.done = true
	return nil, nil, false
}

// pgSerial is the serialized generator on a whole slice.
type pgSerial struct {
	sl  pgSlice
	gen *pgSerialGen
}

func newPgSerial(sl pgSlice, p int, pre pgPrefix) pgGen {
	fixT, fixN, ok := pgFix(sl, pre, p)
	if !ok {
		return &pgSerial{gen: &pgSerialGen{done: true}}
	}
	gen := newPgSerialGen(sl.K, p, fixT, fixN)
	gen.cut, gen.par, gen.born = sl.Cut, sl.Par, sl.Born
	return &pgSerial{sl: sl, gen: gen}
}

// pgFix translates a prefix into fixed positions over the slice's thread
// indices; ok is false when the prefix names a thread outside the slice.
func pgFix(sl pgSlice, pre pgPrefix, p int) (fixT, fixN []int, ok bool) {
	for _, l := range pre.Lit {
		i := sl.index(l.T)
		if i < 0 {
			return nil, nil, false
		}
		fixT = append(fixT, i)
		fixN = append(fixN, l.N)
	}
	if pre.HasPat {
		i := sl.index(pre.Pat)
		if i < 0 {
			return nil, nil, false
		}
		fixT = append(fixT, i)
	}
	return fixT, fixN, len(fixT) <= p
}

func (g *pgSerial) next() (pgSchedule, bool) {
	pat, cnt, ok := g.gen.nextRaw()
	if !ok {
		return nil, false
	}
	s := make(pgSchedule, len(pat))
	for i := range pat {
		s[i] = pgPeriod{{g.sl.T[pat[i]], cnt[i]}}
	}
	return s, true
}

// pgParallel is the parallel generator: for every combination of 1 ..
// min(p, n) threads (by size, then lexicographically), the serialized
// schedules of those threads, with all key points of the neglected threads
// added to the last period.
//
// Unlike a literal reading of the paper it never yields the same schedule
// twice: when the last serialized period's thread t appears nowhere else,
// the schedule is the same as the one built from the combination where t is
// neglected and a neglected thread takes its place, so only the variant
// whose last-period thread is the smallest of the last period is kept.
//
// Threads that ran the same key point sites (ten goroutines started from one
// loop) are interchangeable as far as the schedule can tell; sym splits the
// combinations in two: symCanonical yields only those that take the first
// members of every class (one representative choice), symOthers the rest.
// Exploring the canonical ones first, for every period number, makes the
// number of schedules that reach a bug depend on how many kinds of threads
// there are, not how many threads: the paper's claim for the number of
// periods, carried over to the number of schedules.
type pgParallel struct {
	sl   pgSlice
	p    int
	sym  pgSym
	pre  pgPrefix
	c    int   // combination size
	comb []int // thread indices of the current combination
	ser  *pgSerialGen
	sub  pgSlice
	done bool
	// rank[i]: how many threads of thread i's class lie between the
	// class's first index (C[i]) and i, -1 when i lies before it (once
	// rootLast moved the root, a class's first index may be its last:
	// the constraint covers only the members from there); taken: per
	// class, its constrained members in the combination being built
	// (nextCanonical).
	rank  []int
	taken []int
}

// pgSym selects combinations by symmetry.
type pgSym uint8

const (
	symAll       pgSym = iota // every combination
	symCanonical              // those taking the first members of each class
	symOthers                 // the rest
)

func newPgParallel(sl pgSlice, p int, pre pgPrefix) pgGen {
	return newPgParallelSym(sl, p, pre, symAll)
}

func newPgParallelSym(sl pgSlice, p int, pre pgPrefix, sym pgSym) pgGen {
	g := &pgParallel{sl: sl, p: p, pre: pre, sym: sym}
	if p < 1 || len(sl.T) == 0 || pre.len() > p {
		g.done = true
	}
	return g
}

// nextComb advances to the next combination, growing its size as needed.
func (g *pgParallel) nextComb() bool {
	n := len(g.sl.T)
	max := g.p
	if n < max {
		max = n
	}
	if g.comb != nil {
		// lexicographic successor among combinations of size c
		i := g.c - 1
		for i >= 0 && g.comb[i] == n-g.c+i {
			i--
		}
		if i >= 0 {
			g.comb[i]++
			for j := i + 1; j < g.c; j++ {
				g.comb[j] = g.comb[j-1] + 1
			}
			return true
		}
	}
	g.c++
	if g.c > max {
		return false
	}
	g.comb = make([]int, g.c)
	for i := range g.comb {
		g.comb[i] = i
	}
	return true
}

// ranks computes rank once.
func (g *pgParallel) ranks() {
	if g.rank != nil {
		return
	}
	n := len(g.sl.T)
	g.rank, g.taken = make([]int, n), make([]int, n)
	seen := make([]int, n)
	for i, c := range g.sl.C {
		if i < c {
			g.rank[i] = -1
			continue
		}
		g.rank[i] = seen[c]
		seen[c]++
	}
}

// counts reports whether j counts for the class constraints (rank).
func (g *pgParallel) counts(j int) bool { return g.rank[j] >= 0 }

// isCanonical reports whether the current combination is canonical: each
// member from its class's first index on is preceded in it by exactly the
// members of its class between that index and it (canonical, in the
// tests, states the same by the definition).
func (g *pgParallel) isCanonical() bool {
	g.ranks()
	for k, i := range g.comb {
		if !g.counts(i) {
			continue
		}
		n := 0
		for _, j := range g.comb[:k] {
			if g.sl.C[j] == g.sl.C[i] && g.counts(j) {
				n++
			}
		}
		if n != g.rank[i] {
			return false
		}
	}
	return true
}

// nextCanonical moves to the next canonical combination in the order of
// nextComb (by size, then lexicographically), without visiting the others.
func (g *pgParallel) nextCanonical() bool {
	g.ranks()
	n := len(g.sl.T)
	if g.comb != nil {
		for k := g.c - 1; k >= 0; k-- {
			if g.fillFrom(k, g.comb[k]+1) {
				return true
			}
		}
	}
	for {
		g.c++
		if g.c > min(g.p, n) {
			return false
		}
		g.comb = make([]int, g.c)
		if g.fillFrom(0, 0) {
			return true
		}
	}
}

// fillFrom keeps comb[:k], and sets comb[k:] to the smallest canonical
// completion with comb[k] >= from; it reports whether there is one. The
// smallest choice at each position never rules out a completion that a
// larger one allows, so none is missed.
func (g *pgParallel) fillFrom(k, from int) bool {
	n := len(g.sl.T)
	for _, i := range g.comb[:k] {
		if g.counts(i) {
			g.taken[g.sl.C[i]]++
		}
	}
	ok := true
	for pos := k; pos < g.c && ok; pos++ {
		if pos > k {
			from = g.comb[pos-1] + 1
		}
		ok = false
		for v := from; v <= n-(g.c-pos); v++ {
			if !g.counts(v) || g.taken[g.sl.C[v]] == g.rank[v] {
				g.comb[pos] = v
				if g.counts(v) {
					g.taken[g.sl.C[v]]++
				}
				ok = true
				break
			}
		}
	}
	for _, i := range g.comb[:g.c] {
		g.taken[g.sl.C[i]] = 0
	}
	return ok
}

// startSerial builds the serialized iterator for the current combination,
// or reports that the prefix rules the combination out.
func (g *pgParallel) startSerial() bool {
	g.sub = pgSlice{}
	for _, i := range g.comb {
		g.sub.T = append(g.sub.T, g.sl.T[i])
		g.sub.K = append(g.sub.K, g.sl.K[i])
		if g.sl.Cut != nil {
			g.sub.Cut = append(g.sub.Cut, g.sl.Cut[i])
		}
		if g.sl.Par != nil {
			a := -1 // a creator outside the combination runs in the last period: it leads
			for k, j := range g.comb {
				if j == g.sl.Par[i] {
					a = k
				}
			}
			g.sub.Par = append(g.sub.Par, a)
			g.sub.Born = append(g.sub.Born, g.sl.Born[i])
		}
	}
	pre := g.pre
	if pre.HasPat && len(pre.Lit) == g.p-1 && g.sub.index(pre.Pat) < 0 {
		// The pattern thread may also sit in the last period as a neglected thread.
		pre.HasPat = false
	}
	fixT, fixN, ok := pgFix(g.sub, pre, g.p)
	if !ok {
		return false
	}
	g.ser = newPgSerialGen(g.sub.K, g.p, fixT, fixN)
	g.ser.cut, g.ser.par, g.ser.born = g.sub.Cut, g.sub.Par, g.sub.Born
	return true
}

func (g *pgParallel) next() (pgSchedule, bool) {
	for !g.done {
		if g.ser == nil {
			if g.sym == symCanonical && g.sl.C != nil {
				// Generated directly: with 50,000 goroutines of a few
				// kinds, filtering every combination took a minute
				// between two schedules (moby/pubsub's TestPubSubRace).
				if !g.nextCanonical() {
					g.done = true
					break
				}
			} else if !g.nextComb() {
				g.done = true
				break
			} else if g.sym == symOthers && g.sl.C != nil && g.isCanonical() {
				continue
			}
			if !g.startSerial() {
				g.ser = nil
				continue
			}
		}
		pat, cnt, ok := g.ser.nextRaw()
		if !ok {
			g.ser = nil
			continue
		}
		if s, ok := g.complete(pat, cnt); ok && g.pre.satisfiedBy(s) {
			return s, true
		}
	}
	return nil, false
}

// complete adds the neglected threads to the last period of a serialized
// schedule of the combination; ok is false for the duplicate variants.
func (g *pgParallel) complete(pat, cnt []int) (pgSchedule, bool) {
	s := make(pgSchedule, g.p)
	for i := 0; i < g.p-1; i++ {
		s[i] = pgPeriod{{g.sub.T[pat[i]], cnt[i]}}
	}
	tl := g.sub.T[pat[g.p-1]]
	alone := true
	for _, t := range pat[:g.p-1] {
		if t == pat[g.p-1] {
			alone = false
		}
	}
	last := pgPeriod{{tl, cnt[g.p-1]}}
	in := make(map[GID]bool, len(g.sub.T))
	for _, t := range g.sub.T {
		in[t] = true
	}
	for i, t := range g.sl.T {
		if in[t] {
			continue
		}
		if alone && t < tl {
			return nil, false
		}
		last = append(last, pgSlot{t, g.sl.K[i]})
	}
	sort.Slice(last, func(i, j int) bool { return last[i].T < last[j].T })
	s[g.p-1] = last
	return s, true
}
