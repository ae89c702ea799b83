//go:build go1.21

package strategy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
)

// PERIOD: controlled concurrency testing via periodical scheduling (Cheng
// Wen, Mingzhe He, Bingwen Wu, Zhiwu Xu, Shengchao Qin, ICSE 2022).
//
// A run follows a schedule, a sequence of periods: <{t0},{t1,t1},{t0,t2..}>
// runs one key point of t0, then two of t1, then the rest. The exploration
// starts from one key point per thread, tries every schedule of every slice
// (the key points each thread executed) with 1, 2, ... P periods, and makes
// a new job whenever a run covers a slice its job's schedules cannot host.
//
// How the paper's executor maps onto the Strategy contract:
//   - A period is complete when its owner used its quota, or when the owner
//     is absent from the enabled set (blocked or exited). The engine is
//     serial and knows who is enabled, so completion is exact: no timers,
//     and no false deadlock. A period whose owner cannot run is therefore
//     skipped, which also covers infeasible schedules: when nothing the
//     schedule allows is enabled, we fall through to the next period. An
//     owner that does not exist yet is led into existence by its creator
//     (see ancestor).
//   - A thread's extra key points stay in its last period: there its quota
//     is unlimited. Threads the schedule does not name, and threads whose
//     periods are over, run in the last period.
//   - The last period is uncontrolled in the paper. Here it is serialized by
//     a PRNG seeded with (seed, run index), so runs are reproducible and
//     every interleaving of the last period can occur across runs. Under the
//     serialized generator (period-serial) the last period has one owner
//     like the others (R1); the threads it does not name run after it,
//     lowest GID first, so period-serial is not randomized at all.
//   - Which ready case of a select fires (Choose) is sampled from the same
//     PRNG: reproducible, never fixed to one alternative.
//
// Choices the paper leaves open:
//   - The first run discovers the threads: it runs the one-period schedule
//     (everything in the last period), which is also the only schedule of
//     the initial slice with one period. Its threads make the initial slice.
//   - "New" slice means a slice other than the job's own; new slices that
//     the job's slice supports make no job (the paper's supported relation).
//   - getPrefix compares the schedules as they were executed (periods that
//     were skipped dropped, quotas as actually used, the last period as a
//     multiset in thread order), not as planned: the prefix is then always
//     feasible for the slice the run produced.
//   - A new job joins the end of the job list and is first explored with the
//     current period number (a prefix from a p-period run has at most p
//     periods, so smaller numbers would give it nothing new).
//   - The paper drops a job as soon as it yields no schedule. That is right
//     when p outgrew the slice, but the serialized generator has nothing for
//     p below the number of threads (R4) and a prefix can be longer than p,
//     so a job is dropped only when it yields nothing and p reaches its
//     number of key points (more periods than key points cannot be filled).
//     Rediscovering a dropped slice makes no new job.
//   - Slices count every key point but goroutine exits, which are recorded
//     but never scheduled.
//   - The parallel generator never yields one schedule twice (see
//     pgParallel); the paper's enumeration would, when a combination's last
//     thread runs only in the last period.
//
// Go adaptations (the paper's C programs have their threads before any
// period starts, and name threads by creation order):
//   - Leads: in Go the test goroutine (t0) creates the others. A period
//     whose owner does not exist yet lets the owner's creator run until it
//     does (ancestor), so <{t3,t3},{t1},{..}> runs as written without
//     spending a period on t0; leads stay out of the effective schedule.
//   - Creation order: schedules that give a goroutine a period before its
//     creator, which has periods of its own, has started it are not
//     generated (pgSerialGen.bornOK): they would run as some other schedule.
//   - Cuts: a period ends only before a key point that conflicts with
//     another goroutine's (same object, not two reads), and not where the
//     goroutine is alone (pgCuts). Other ends give the same runs.
//   - Symmetry: goroutines that ran the same key point sites (ten workers
//     started by one loop) are interchangeable for the schedule. The first
//     pass over 1..P periods takes only combinations with the first members
//     of each class; a second pass takes the rest (pgParallel). The number
//     of schedules that reach a bug then depends on how many kinds of
//     goroutines there are, not how many goroutines.
//   - Covered jobs: a job whose schedules another job hosts (its slice
//     supports this one's, its prefix admits more) is dropped
//     (pgJobList.covered): while Period learns which memory accesses are
//     shared, the first runs make growing slices whose jobs would each be
//     explored in full.
//   - The test goroutine's periods are tried last (rootLast): it usually
//     sets up, starts the others, waits and checks, ordered with them by the
//     go statement and the wait.
//
// None of these removes a schedule that could run differently from every
// schedule kept, except where the heuristics' premises fail (a conflict
// seen in no run, interchangeable goroutines that differ in data), and the
// second pass still reaches the latter within the bound.
type pgStrategy struct {
	name   string
	serial bool // use the serialized generator (rules R1-R4) instead of the parallel one
	seed   int64
	bound  int // period bound P
	budget int

	list     pgJobList
	p        int   // current period number
	j        int   // index in list.jobs of the job being explored
	gen      pgGen // schedules of job j with p periods, nil before the first
	genN     int   // schedules taken from gen
	runs     int   // runs begun
	boot     bool  // the next End fills in the initial slice
	finished bool  // every job is done or the bound is reached
	prev     pgSchedule

	// the current run
	cur    pgSchedule
	curJob *pgJob
	lastOf map[GID]int // last period naming each thread
	per    int         // current period
	used   int         // key points run in the current period
	picks  []pgPick
	rng    SplitMix
	freeAt int    // picks before the run was released to free mode (Release); -1: not released
	seen   []bool // threads that have existed in this run, by GID

	pass   int            // 1: canonical combinations only; 2: the others (see pgParallel)
	pathID map[string]GID // creation path -> GID, for finding a period owner's ancestors

	paths       []string // GID -> creation path, from the latest run
	provisional []string // path table of a restored checkpoint, until a run confirms it
}

// pgPick is one Next decision: who ran in which period.
type pgPick struct {
	per  int
	g    GID
	lead bool // an ancestor running until the period's owner exists
}

// PeriodDefaultBound is the period bound used when Options.Bound is zero.
// It is the paper's setting on real-world CVEs: five periods reach bugs of
// depth four, and most real concurrency bugs have depth two or less. The
// search is iterative (1, 2, ... periods), so shallow bugs are found first
// whatever the bound.
const PeriodDefaultBound = 5

func init() {
	Register("period", func(o Options) Strategy { return newPeriod("period", false, o) })
	Register("period-serial", func(o Options) Strategy { return newPeriod("period-serial", true, o) })
}

func newPeriod(name string, serial bool, o Options) *pgStrategy {
	s := &pgStrategy{name: name, serial: serial, seed: o.Seed, bound: o.Bound, budget: o.Budget}
	if s.bound <= 0 {
		s.bound = PeriodDefaultBound
	}
	s.reset()
	return s
}

// reset starts the exploration over with the job of the initial slice,
// unknown until the first run.
func (s *pgStrategy) reset() {
	init := &pgJob{key: "init"}
	s.list = pgJobList{jobs: []*pgJob{init}, all: []*pgJob{init}}
	s.p, s.j, s.gen, s.genN, s.runs, s.pass = 1, 0, nil, 0, 0, 1
	s.boot, s.finished, s.prev = true, false, nil
}

func (s *pgStrategy) Name() string { return s.name }

func (s *pgStrategy) newGen(j *pgJob, p int) pgGen {
	if s.boot {
		// The first run: one period holding everything, whatever the threads.
		return &pgOnce{s: pgSchedule{pgPeriod{}}}
	}
	if s.serial {
		return newPgSerial(j.sl, p, j.pre)
	}
	sym := symAll
	switch {
	case j.sl.symmetric() && s.pass == 1:
		sym = symCanonical
	case j.sl.symmetric():
		sym = symOthers
	case s.pass == 2:
		return &pgOnce{done: true} // explored in full in the first pass
	}
	return newPgParallelSym(s.rootLast(j.sl), p, j.pre, sym)
}

// rootLast moves the test goroutine to the end of the slice's thread order,
// so that the parallel generator tries the combinations of the goroutines
// it starts before those that give the test goroutine periods of its own.
// A Go test typically sets up, starts its goroutines, waits and checks, so
// its key points are mostly ordered with the others' by the go statement
// and the wait; the paper's programs have no such thread. The order changes
// which schedules come first, not which schedules exist.
func (s *pgStrategy) rootLast(sl pgSlice) pgSlice {
	root, ok := s.pathID["0"]
	i := sl.index(root)
	if !ok || i < 0 || i == len(sl.T)-1 {
		return sl
	}
	perm := make([]int, 0, len(sl.T)) // new position -> old index
	for j := range sl.T {
		if j != i {
			perm = append(perm, j)
		}
	}
	perm = append(perm, i)
	at := make([]int, len(sl.T)) // old index -> new position
	for n, o := range perm {
		at[o] = n
	}
	var out pgSlice
	for _, o := range perm {
		out.T = append(out.T, sl.T[o])
		out.K = append(out.K, sl.K[o])
		if sl.C != nil {
			out.C = append(out.C, at[sl.C[o]])
		}
		if sl.Cut != nil {
			out.Cut = append(out.Cut, sl.Cut[o])
		}
		if sl.Par != nil {
			a := sl.Par[o]
			if a >= 0 {
				a = at[a]
			}
			out.Par = append(out.Par, a)
			out.Born = append(out.Born, sl.Born[o])
		}
	}
	return out
}

// Begin runs the paper's top-level loop up to the next schedule.
func (s *pgStrategy) Begin() bool {
	if s.finished || (s.budget > 0 && s.runs >= s.budget) {
		return false
	}
	for {
		if s.explore() {
			return true
		}
		if s.pass == 2 || s.serial || !s.anySymmetric() {
			break
		}
		// Second pass: the combinations that differ from the first pass's
		// only by which interchangeable threads they take.
		s.pass, s.p, s.j, s.gen = 2, 2, 0, nil
		s.list.jobs = s.list.again()
	}
	s.finished = true
	return false
}

func (s *pgStrategy) anySymmetric() bool {
	for _, j := range s.list.all {
		if !j.covered && j.sl.symmetric() {
			return true
		}
	}
	return false
}

// explore runs the paper's loop over period numbers and jobs up to the next
// schedule; false when the bound is reached or the jobs ran out.
func (s *pgStrategy) explore() bool {
	for s.p <= s.bound {
		for s.j < len(s.list.jobs) {
			job := s.list.jobs[s.j]
			if s.gen == nil && !s.boot && s.list.covered(s.j) {
				job.covered = true
				s.list.jobs = append(s.list.jobs[:s.j], s.list.jobs[s.j+1:]...)
				continue
			}
			if s.gen == nil {
				s.gen, s.genN = s.newGen(job, s.p), 0
			}
			if sch, ok := s.gen.next(); ok {
				s.genN++
				s.start(sch, job)
				return true
			}
			if s.genN == 0 && s.p >= job.sl.total() {
				// No schedule, and p periods are as many as the slice has
				// key points: bigger p cannot be filled (R3), the job is done.
				s.list.remove(s.j)
			} else {
				s.j++
			}
			s.gen = nil
		}
		if len(s.list.jobs) == 0 {
			break // every feasible schedule explored
		}
		s.p++
		s.j = 0
	}
	return false
}

// start prepares the executor for schedule sch.
func (s *pgStrategy) start(sch pgSchedule, job *pgJob) {
	s.cur, s.curJob = sch, job
	s.lastOf = make(map[GID]int)
	for i, per := range sch {
		for _, sl := range per {
			s.lastOf[sl.T] = i
		}
	}
	s.per, s.used, s.picks, s.freeAt = 0, 0, s.picks[:0], -1
	clear(s.seen)
	s.rng = SplitMix{uint64(s.seed)*0x9e3779b97f4a7c15 ^ (uint64(s.runs)+1)*0xd1b54a32d192ed03}
	s.runs++
}

// Next is the periodical executor.
func (s *pgStrategy) Next(enabled []Event) int {
	last := len(s.cur) - 1
	if s.per < last {
		// Who exists, for leads; the last period needs none.
		for _, e := range enabled {
			for int(e.G) >= len(s.seen) {
				s.seen = append(s.seen, false)
			}
			s.seen[e.G] = true
		}
	}
	for s.per < last {
		sl := s.cur[s.per][0] // periods before the last have one owner
		if s.used < sl.N || s.lastOf[sl.T] == s.per {
			for i, e := range enabled {
				if e.G == sl.T {
					s.used++
					s.picks = append(s.picks, pgPick{per: s.per, g: e.G})
					return i
				}
			}
			if i := s.ancestor(enabled, sl.T); i >= 0 {
				s.picks = append(s.picks, pgPick{per: s.per, g: enabled[i].G, lead: true})
				return i
			}
		}
		// Complete: the quota is used, or the owner is blocked or exited
		// (or was never created, and no ancestor can create it).
		s.per++
		s.used = 0
	}
	i := s.lastPick(enabled, last)
	s.picks = append(s.picks, pgPick{per: last, g: enabled[i].G})
	return i
}

// ancestor finds, for a period owner t that does not exist yet, the
// enabled goroutine that will create it: the nearest ancestor (by creation
// path) that exists. It leads until t appears; its key points are not t's
// quota. In Go the test goroutine creates the threads under test, which
// the paper's C programs do before any period starts; without the lead a
// period owned by a child would be skipped whenever it comes first, and the
// schedule would fall through to its uncontrolled last period.
func (s *pgStrategy) ancestor(enabled []Event, t GID) int {
	if int(t) < len(s.seen) && s.seen[t] {
		return -1 // it existed: blocked or exited, the period is complete
	}
	path := pgPathOf(s.paths, t)
	for {
		dot := strings.LastIndexByte(path, '.')
		if dot < 0 {
			return -1
		}
		path = path[:dot]
		a, ok := s.pathID[path]
		if !ok || int(a) >= len(s.seen) || !s.seen[a] {
			continue // not created either: its own ancestor leads
		}
		for i, e := range enabled {
			if e.G == a {
				return i
			}
		}
		return -1 // the creator is blocked or exited
	}
}

// lastPick serializes the last period. The parallel generator leaves it
// uncontrolled, so a seeded PRNG picks among the enabled threads. The
// serialized generator keeps R1 there too: its owner runs, then the threads
// the schedule does not name, lowest GID first.
func (s *pgStrategy) lastPick(enabled []Event, last int) int {
	if !s.serial {
		return s.rng.Intn(len(enabled))
	}
	for i, e := range enabled {
		for _, sl := range s.cur[last] {
			if e.G == sl.T {
				return i
			}
		}
	}
	return 0
}

// Release lets the last period of the parallel generator run free, as in
// the paper (rt.Config.Parallel); the serialized generator keeps R1 there.
func (s *pgStrategy) Release() bool {
	if s.serial || s.per < len(s.cur)-1 {
		return false
	}
	if s.freeAt < 0 {
		s.freeAt = len(s.picks)
	}
	return true
}

// Choose samples which alternative fires from the run's PRNG.
func (s *pgStrategy) Choose(at Event, n int) int { return s.rng.Intn(n) }

// End is the feedback analyzer.
func (s *pgStrategy) End(r *Run) {
	if s.provisional != nil {
		s.confirmPaths(r.Paths)
	}
	if len(r.Paths) != len(s.pathID) {
		s.pathID = make(map[string]GID, len(r.Paths))
		for g, p := range r.Paths {
			s.pathID[p] = GID(g)
		}
	}
	s.paths = r.Paths
	if s.freeAt >= 0 && s.freeAt <= r.Len() {
		// Everything from the release on ran in the last period, in the
		// order the engine recorded, whoever picked it.
		s.picks = s.picks[:s.freeAt]
		for ix, nx := s.freeAt, r.Len(); ix < nx; ix++ {
			e := r.At(ix)
			s.picks = append(s.picks, pgPick{per: len(s.cur) - 1, g: e.G})
		}
	}
	counts := map[GID]int{}
	for ix, nx := 0, r.Len(); ix < nx; ix++ {
		e := r.At(ix)
		if e.Op != OpExit {
			counts[e.G]++
		}
	}
	sl := pgCounts(counts)
	key := pgSliceKey(r)
	eff := pgEffective(s.picks, len(s.cur))
	job := s.curJob
	if s.boot {
		s.boot = false
		one := map[GID]int{}
		var all pgPeriod
		for _, t := range sl.T {
			one[t] = 1
			all = append(all, pgSlot{t, 1})
		}
		job.sl = pgCounts(one)
		job.sl.C = pgClasses(job.sl.T, pgSigs(r))
		s.cur = pgSchedule{all}
	}
	if job != nil && key != job.key && !pgSupported(sl, job.sl) {
		if !s.list.has(key) {
			// What the Go adaptations need, only for a slice that makes a job.
			sl.C = pgClasses(sl.T, pgSigs(r))
			sl.Cut = pgCuts(sl, r, s.pathID)
			sl.Par, sl.Born = pgCreators(sl, r.Paths, r.Born)
		}
		s.list.update(key, sl, pgGetPrefix(eff, s.prev))
	}
	s.prev = eff
}

// pgCuts finds, for each thread of the slice, after which of its key
// points a period may end: before a key point that conflicts with another
// thread's (same object, not both reads). Before a key point that touches
// nothing another thread touches, ending the period is the same as ending it
// at the thread's next conflicting key point. Key points without an object
// (other than a goroutine's start) count as conflicting: Period cannot tell.
// A period may not end either where no other thread exists yet (the test
// goroutine before it starts the others): there the next period's owner
// could only be reached through a lead (see ancestor), the same schedule as
// without the cut.
func pgCuts(sl pgSlice, r *Run, pathID map[string]GID) [][]bool {
	type use struct {
		any, wr  GID // a thread that accessed (wrote) the object, -1: none
		anyMulti bool
		wrMulti  bool
	}
	uses := map[uintptr]*use{}
	for ix, nx := 0, r.Len(); ix < nx; ix++ {
		e := r.At(ix)
		if e.Obj == 0 || e.Op == OpExit {
			continue
		}
		u := uses[e.Obj]
		if u == nil {
			u = &use{any: -1, wr: -1}
			uses[e.Obj] = u
		}
		if u.any < 0 {
			u.any = e.G
		} else if u.any != e.G {
			u.anyMulti = true
		}
		if e.Op != OpRead {
			if u.wr < 0 {
				u.wr = e.G
			} else if u.wr != e.G {
				u.wrMulti = true
			}
		}
	}
	visible := func(e Event) bool {
		if e.Obj == 0 {
			return e.Op != OpStart
		}
		u := uses[e.Obj]
		if e.Op == OpRead {
			return u.wrMulti || u.wr >= 0 && u.wr != e.G
		}
		return u.anyMulti || u.any != e.G
	}
	cut := make([][]bool, len(sl.T))
	pos := make(map[GID]int, len(sl.T))
	for i, t := range sl.T {
		cut[i] = make([]bool, sl.K[i])
		pos[t] = i
	}
	seen := make([]int, len(sl.T))
	for ix, nx := 0, r.Len(); ix < nx; ix++ {
		e := r.At(ix)
		i, ok := pos[e.G]
		if !ok || e.Op == OpExit {
			continue
		}
		if c := seen[i]; c > 0 && c < len(cut[i]) {
			cut[i][c] = visible(e) // a period may end after c key points if the next one is visible
		}
		seen[i]++
	}
	for i, t := range sl.T {
		alone := pgAloneUntil(sl, r, t, pathID)
		for c := 1; c < alone && c < len(cut[i]); c++ {
			cut[i][c] = false
		}
	}
	return cut
}

// pgCreators finds each thread's creator in the slice and how many key
// points the creator had run when it started the thread (nil when the run
// did not tell).
func pgCreators(sl pgSlice, paths []string, born map[GID]int) (par, at []int) {
	if born == nil {
		return nil, nil
	}
	idx := make(map[string]int, len(sl.T))
	for i, t := range sl.T {
		idx[pgPathOf(paths, t)] = i
	}
	par, at = make([]int, len(sl.T)), make([]int, len(sl.T))
	for i, t := range sl.T {
		par[i] = -1
		p := pgPathOf(paths, t)
		if dot := strings.LastIndexByte(p, '.'); dot >= 0 {
			if j, ok := idx[p[:dot]]; ok {
				par[i], at[i] = j, born[t]
			}
		}
	}
	return par, at
}

// pgAloneUntil is how many key points thread t runs before any other
// thread of the slice can exist: when every other thread descends from t,
// the key points t had run when it started the first of them. pathID maps
// r.Paths back to GIDs (a search of r.Paths for every thread made the end
// of a run with 100,000 goroutines quadratic).
func pgAloneUntil(sl pgSlice, r *Run, t GID, pathID map[string]GID) int {
	if r.Born == nil {
		return 0
	}
	mine := pgPathOf(r.Paths, t) + "."
	first := -1
	for _, u := range sl.T {
		if u == t {
			continue
		}
		p := pgPathOf(r.Paths, u)
		if !strings.HasPrefix(p, mine) {
			return 0 // not t's descendant: it may exist already
		}
		// the child of t that u descends from
		child := p
		if k := strings.IndexByte(p[len(mine):], '.'); k >= 0 {
			child = p[:len(mine)+k]
		}
		b, found := -1, false
		if g, ok := pathID[child]; ok {
			b, found = r.Born[g]
		}
		if !found {
			return 0
		}
		if first < 0 || b < first {
			first = b
		}
	}
	return max(first, 0)
}

// pgSigs is each thread's signature: what it ran, not where it started.
func pgSigs(r *Run) map[GID]uint64 {
	sigs := map[GID]uint64{}
	for ix, nx := 0, r.Len(); ix < nx; ix++ {
		e := r.At(ix)
		if e.Op != OpExit {
			sigs[e.G] = pgMix(sigs[e.G], e.Op, e.Site)
		}
	}
	return sigs
}

// pgMix adds a key point to a thread's signature (FNV-1a over op and
// site). Where a goroutine was started does not count: two goroutines that
// run the same code from two go statements are as interchangeable as two
// started by one loop.
func pgMix(h uint64, op Op, site string) uint64 {
	if h == 0 {
		h = 14695981039346656037
	}
	if op == OpStart {
		site = ""
	}
	h = (h ^ uint64(op)) * 1099511628211
	for i := 0; i < len(site); i++ {
		h = (h ^ uint64(site[i])) * 1099511628211
	}
	return (h ^ 0xff) * 1099511628211
}

// pgClasses groups the threads that ran the same key point sites, in
// order: interchangeable for the parallel generator (see pgParallel).
func pgClasses(ts []GID, sigs map[GID]uint64) []int {
	c := make([]int, len(ts))
	first := map[uint64]int{}
	for i, t := range ts {
		j, ok := first[sigs[t]]
		if !ok {
			j = i
			first[sigs[t]] = i
		}
		c[i] = j
	}
	return c
}

// Describe shows the current schedule; ".." marks the unbounded last
// period. The threads named before it are given by goroutine, as reports
// name goroutines: <{t3,t3},{t1},{..}> (t3 = g0.3, t1 = g0.1).
func (s *pgStrategy) Describe() string {
	if len(s.cur) == 1 && len(s.cur[0]) == 0 {
		return "<{..}>"
	}
	var names []string
	seen := map[GID]bool{}
	for _, per := range s.cur[:len(s.cur)-1] {
		for _, sl := range per {
			if !seen[sl.T] && int(sl.T) < len(s.paths) {
				seen[sl.T] = true
				names = append(names, "t"+strconv.Itoa(int(sl.T))+" = g"+s.paths[sl.T])
			}
		}
	}
	if len(names) == 0 {
		return s.cur.format(true)
	}
	return s.cur.format(true) + " (" + strings.Join(names, ", ") + ")"
}

// pgSliceKey identifies a run's slice independently of GID numbering: the
// sites of every thread, threads by creation path.
func pgSliceKey(r *Run) string {
	sites := map[string][]string{}
	for ix, nx := 0, r.Len(); ix < nx; ix++ {
		e := r.At(ix)
		if e.Op != OpExit {
			p := pgPathOf(r.Paths, e.G)
			sites[p] = append(sites[p], e.Site)
		}
	}
	var ps []string
	for p := range sites {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	h := sha256.New()
	for _, p := range ps {
		h.Write([]byte(p))
		for _, site := range sites[p] {
			h.Write([]byte{0})
			h.Write([]byte(site))
		}
		h.Write([]byte{1})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func pgPathOf(paths []string, g GID) string {
	if int(g) < len(paths) && g >= 0 {
		return paths[g]
	}
	return "#" + strconv.Itoa(int(g))
}

// pgEffective rebuilds the schedule a run actually followed: periods
// without key points dropped, neighbours with the same single owner merged,
// leads left out (they depend only on who creates whom).
func pgEffective(picks []pgPick, n int) pgSchedule {
	var s pgSchedule
	for i := 0; i < len(picks); {
		j := i
		cnt := map[GID]int{}
		if picks[i].lead {
			i++ // a lead is how the period's owner came to exist, not part of the schedule
			continue
		}
		for j < len(picks) && picks[j].per == picks[i].per && !picks[j].lead {
			cnt[picks[j].g]++
			j++
		}
		per := pgPeriod(pgCounts(cnt).slots())
		if k := len(s) - 1; k >= 0 && len(s[k]) == 1 && len(per) == 1 && s[k][0].T == per[0].T {
			s[k][0].N += per[0].N
		} else {
			s = append(s, per)
		}
		i = j
	}
	return s
}

func (sl pgSlice) total() int {
	n := 0
	for _, k := range sl.K {
		n += k
	}
	return n
}

func (sl pgSlice) slots() []pgSlot {
	out := make([]pgSlot, len(sl.T))
	for i := range sl.T {
		out[i] = pgSlot{sl.T[i], sl.K[i]}
	}
	return out
}

// pgOnce yields one schedule.
type pgOnce struct {
	s    pgSchedule
	done bool
}

func (o *pgOnce) next() (pgSchedule, bool) {
	if o.done {
		return nil, false
	}
	o.done = true
	return o.s, true
}

// SplitMix is splitmix64: tiny, seedable, and its state is one number (S,
// the seed). PERIOD's runs and rt's free mode draw from it.
type SplitMix struct{ S uint64 }

func (r *SplitMix) next() uint64 {
	r.S += 0x9e3779b97f4a7c15
	z := r.S
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Intn returns a number in [0, n).
func (r *SplitMix) Intn(n int) int { return int(r.next() % uint64(n)) }

// ---- checkpoints ----

// The checkpoint names threads by creation path, since GIDs are numbered
// per process. A restored strategy assumes the new process numbers paths
// as the old one did; the first run's End checks that against the run's
// Paths and, if the numbering differs, translates the state (the position
// inside the current generator is then approximate: generators order
// threads by GID).

type pgSlotState struct {
	T string
	N int
}

type pgJobState struct {
	Key     string
	T       []string
	K       []int
	C       []int    `json:",omitempty"`
	Cut     [][]bool `json:",omitempty"`
	Born    []int    `json:",omitempty"`
	Lit     []pgSlotState
	Pat     string
	HasPat  bool
	Covered bool `json:",omitempty"`
	Listed  bool `json:",omitempty"` // in the list of the current pass (else only among all jobs)
}

type pgState struct {
	Name             string
	Paths            []string
	P, J, GenN, Runs int
	Pass             int
	Boot, Finished   bool
	Jobs             []pgJobState // every job made, in order
	Done             []string
	Prev             [][]pgSlotState
}

// Checkpoint saves the exploration state between runs.
func (s *pgStrategy) Checkpoint() []byte {
	paths := s.paths
	if s.provisional != nil {
		paths = s.provisional
	}
	b, _ := json.Marshal(s.state(paths))
	return b
}

func (s *pgStrategy) state(paths []string) pgState {
	name := func(g GID) string { return pgPathOf(paths, g) }
	st := pgState{Name: s.name, Paths: paths, P: s.p, J: s.j, GenN: s.genN, Runs: s.runs, Pass: s.pass, Boot: s.boot, Finished: s.finished}
	if s.gen == nil {
		st.GenN = -1
	}
	listed := map[*pgJob]bool{}
	for _, j := range s.list.jobs {
		listed[j] = true
	}
	for _, j := range s.list.all {
		js := pgJobState{Key: j.key, K: j.sl.K, C: j.sl.C, Cut: j.sl.Cut, Born: j.sl.Born, HasPat: j.pre.HasPat, Covered: j.covered, Listed: listed[j]}
		for _, t := range j.sl.T {
			js.T = append(js.T, name(t))
		}
		for _, l := range j.pre.Lit {
			js.Lit = append(js.Lit, pgSlotState{name(l.T), l.N})
		}
		if j.pre.HasPat {
			js.Pat = name(j.pre.Pat)
		}
		st.Jobs = append(st.Jobs, js)
	}
	for k := range s.list.done {
		st.Done = append(st.Done, k)
	}
	sort.Strings(st.Done)
	for _, per := range s.prev {
		var ps []pgSlotState
		for _, sl := range per {
			ps = append(ps, pgSlotState{name(sl.T), sl.N})
		}
		st.Prev = append(st.Prev, ps)
	}
	return st
}

// Restore resumes from a checkpoint of the same strategy.
func (s *pgStrategy) Restore(b []byte) error {
	var st pgState
	if err := json.Unmarshal(b, &st); err != nil {
		return err
	}
	if st.Name != s.name {
		return errors.New("period: checkpoint of strategy " + st.Name + ", not " + s.name)
	}
	paths := s.paths
	if paths == nil {
		paths = st.Paths
		s.provisional = st.Paths
	}
	return s.load(st, paths)
}

// load installs state st, naming threads by the GIDs paths give them.
func (s *pgStrategy) load(st pgState, paths []string) error {
	ids := map[string]GID{}
	for i, p := range paths {
		ids[p] = GID(i)
	}
	next := GID(len(paths))
	gid := func(p string) GID {
		if g, ok := ids[p]; ok {
			return g
		}
		if len(p) > 1 && p[0] == '#' {
			if n, err := strconv.Atoi(p[1:]); err == nil {
				return GID(n)
			}
		}
		ids[p] = next // a path this process has not seen: a fresh id
		next++
		return ids[p]
	}
	s.p, s.j, s.runs, s.boot, s.finished, s.pass = st.P, st.J, st.Runs, st.Boot, st.Finished, max(st.Pass, 1)
	if s.paths == nil {
		s.paths = paths // until the first run tells (ancestors of period owners)
	}
	s.pathID = make(map[string]GID, len(paths))
	for g, p := range paths {
		s.pathID[p] = GID(g)
	}
	s.list = pgJobList{done: map[string]bool{}}
	for _, k := range st.Done {
		s.list.done[k] = true
	}
	for _, js := range st.Jobs {
		if len(js.T) != len(js.K) || js.C != nil && len(js.C) != len(js.K) || js.Cut != nil && len(js.Cut) != len(js.K) || js.Born != nil && len(js.Born) != len(js.K) {
			return errors.New("period: corrupt checkpoint")
		}
		m := map[GID]int{}
		sigs := map[GID]uint64{}
		for i, p := range js.T {
			m[gid(p)] = js.K[i]
			if js.C != nil {
				if js.C[i] < 0 || js.C[i] > i {
					return errors.New("period: corrupt checkpoint")
				}
				sigs[gid(p)] = uint64(js.C[i]) + 1
			}
		}
		j := &pgJob{key: js.Key, sl: pgCounts(m), pre: pgPrefix{HasPat: js.HasPat}, covered: js.Covered}
		if js.C != nil {
			// classes by the saved grouping, re-indexed in this process's thread order
			j.sl.C = pgClasses(j.sl.T, sigs)
		}
		if js.Cut != nil {
			cuts := map[GID][]bool{}
			for i, p := range js.T {
				cuts[gid(p)] = js.Cut[i]
			}
			for _, t := range j.sl.T {
				j.sl.Cut = append(j.sl.Cut, cuts[t])
			}
		}
		if js.Born != nil {
			born := map[GID]int{}
			for i, p := range js.T {
				born[gid(p)] = js.Born[i]
			}
			j.sl.Par, j.sl.Born = pgCreators(j.sl, paths, born)
		}
		for _, l := range js.Lit {
			j.pre.Lit = append(j.pre.Lit, pgSlot{gid(l.T), l.N})
		}
		if js.HasPat {
			j.pre.Pat = gid(js.Pat)
		}
		s.list.all = append(s.list.all, j)
		if js.Listed {
			s.list.jobs = append(s.list.jobs, j)
		}
	}
	s.prev = nil
	for _, ps := range st.Prev {
		var per pgPeriod
		for _, l := range ps {
			per = append(per, pgSlot{gid(l.T), l.N})
		}
		sort.Slice(per, func(a, b int) bool { return per[a].T < per[b].T })
		s.prev = append(s.prev, per)
	}
	s.gen, s.genN = nil, 0
	if st.GenN >= 0 && s.j < len(s.list.jobs) {
		s.gen = s.newGen(s.list.jobs[s.j], s.p)
		for s.genN < st.GenN {
			if _, ok := s.gen.next(); !ok {
				break
			}
			s.genN++
		}
	}
	return nil
}

// confirmPaths checks the restored numbering against a run's paths.
func (s *pgStrategy) confirmPaths(paths []string) {
	old := s.provisional
	s.provisional = nil
	same := true
	for i := 0; i < len(old) && i < len(paths); i++ {
		if old[i] != paths[i] {
			same = false
		}
	}
	if same {
		return
	}
	key := ""
	if s.curJob != nil {
		key = s.curJob.key
	}
	_ = s.load(s.state(old), paths)
	for _, j := range s.list.jobs {
		if j.key == key {
			s.curJob = j
		}
	}
}

// ReadsLog: End reads the run through Len and At (LogReader).
func (s *pgStrategy) ReadsLog() {}
