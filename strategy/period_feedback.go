//go:build go1.21

package strategy

// This file holds PERIOD's feedback analyzer (section 3.4 of the paper):
// when a run covers a slice that the schedules of its job cannot host, a
// new job is made for that slice, with a schedule prefix that should lead
// later runs back into it.

// pgJob is a slice still to explore and the prefix leading to it.
type pgJob struct {
	key     string  // identity of the slice (its threads' paths and sites)
	sl      pgSlice // key point counts, what the generators need
	pre     pgPrefix
	covered bool // another job's schedules host all of this one's
}

// pgSupported reports whether slice a is supported by slice b: no thread
// has more key points in a than in b, so b's schedules have room for a's
// key points.
func pgSupported(a, b pgSlice) bool {
	if len(a.T) > len(b.T) {
		return false
	}
	index := b.index
	if len(a.T)*len(b.T) > 4096 {
		// A pass over b per thread of a was quadratic in the goroutines
		// (50,000 in moby/pubsub's TestPubSubRace).
		at := make(map[GID]int, len(b.T))
		for j, t := range b.T {
			at[t] = j
		}
		index = func(t GID) int {
			if j, ok := at[t]; ok {
				return j
			}
			return -1
		}
	}
	for i, t := range a.T {
		j := index(t)
		if j < 0 || a.K[i] > b.K[j] {
			return false
		}
	}
	return true
}

// pgGetPrefix compares schedule s with the schedule run just before it and
// finds the first key point where they differ, say of thread ti: the prefix
// keeps every period of s before that key point's period literally and adds
// the pattern period [ti]. If s runs out before any difference (s is a
// prefix of prev, or equal to it), the last period of s plays that role.
func pgGetPrefix(s, prev pgSchedule) pgPrefix {
	if len(s) == 0 {
		return pgPrefix{}
	}
	es, ep := s.expand(), prev.expand()
	i := 0
	for i < len(es) && i < len(ep) && es[i] == ep[i] {
		i++
	}
	k := len(s) - 1
	if i < len(es) {
		pos := 0
		for k = 0; k < len(s); k++ {
			n := 0
			for _, sl := range s[k] {
				n += sl.N
			}
			if i < pos+n {
				break
			}
			pos += n
		}
	} else {
		i = len(es)
		for _, sl := range s[k] {
			i -= sl.N
		}
	}
	var pre pgPrefix
	for _, per := range s[:k] {
		pre.Lit = append(pre.Lit, per[0])
	}
	if i < len(es) {
		pre.Pat, pre.HasPat = es[i], true
	}
	return pre
}

// pgCommonPrefix is what prefixes a and b have in common:
// their common literal periods, then the pattern period if both put the
// same thread at the first period where they part.
func pgCommonPrefix(a, b pgPrefix) pgPrefix {
	var c pgPrefix
	i := 0
	for i < len(a.Lit) && i < len(b.Lit) && a.Lit[i] == b.Lit[i] {
		c.Lit = append(c.Lit, a.Lit[i])
		i++
	}
	at, aok := pgThreadAt(a, i)
	bt, bok := pgThreadAt(b, i)
	if aok && bok && at == bt {
		// Where one side pins a count the other leaves free, or both pin
		// different counts, only the thread is common.
		c.Pat, c.HasPat = at, true
	}
	return c
}

// pgThreadAt is the thread the prefix puts at period i, if any.
func pgThreadAt(x pgPrefix, i int) (GID, bool) {
	if i < len(x.Lit) {
		return x.Lit[i].T, true
	}
	if i == len(x.Lit) && x.HasPat {
		return x.Pat, true
	}
	return 0, false
}

// pgJobList is the job list with the updateJobs step of the paper.
type pgJobList struct {
	jobs []*pgJob
	all  []*pgJob        // every job made, for the second pass over symmetric combinations
	done map[string]bool // slices whose job ran out of schedules
}

// update is updateJobs(slice, prefix): an existing job for the slice gets
// the common prefix of its prefix and the new one; otherwise a job joins
// the end of the list. A finished slice stays finished: its job ran out of
// schedules at some period number and bigger ones have no room either.
func (l *pgJobList) update(key string, sl pgSlice, pre pgPrefix) {
	if l.done[key] {
		return
	}
	for _, j := range l.jobs {
		if j.key == key {
			j.pre = pgCommonPrefix(j.pre, pre)
			return
		}
	}
	j := &pgJob{key: key, sl: sl, pre: pre}
	l.jobs = append(l.jobs, j)
	l.all = append(l.all, j)
}

// has reports whether a job for the slice exists or existed.
func (l *pgJobList) has(key string) bool {
	if l.done[key] {
		return true
	}
	for _, j := range l.jobs {
		if j.key == key {
			return true
		}
	}
	return false
}

// covered reports whether another job of the list hosts every schedule of
// job i: its slice supports job i's (a thread's extra key points run in its
// last period, so the schedule of the smaller slice is one of the bigger
// slice's) and its prefix admits every schedule job i's prefix admits. Of
// two jobs covering each other the earlier stays. The paper only avoids
// making a job whose slice the current job supports; without this check
// the jobs of the first runs, whose slices grow while Period learns which
// memory accesses are shared, and the initial job would each be explored in
// full at every period number for nothing.
func (l *pgJobList) covered(i int) bool {
	j := l.jobs[i]
	for k, o := range l.jobs {
		if k == i || !pgSupported(j.sl, o.sl) || !pgWeaker(o.pre, j.pre) {
			continue
		}
		if k > i && pgSupported(o.sl, j.sl) && pgWeaker(j.pre, o.pre) {
			continue // the same schedules: the earlier job stays
		}
		return true
	}
	return false
}

// pgWeaker reports whether every schedule satisfying prefix b satisfies a.
func pgWeaker(a, b pgPrefix) bool {
	if len(a.Lit) > len(b.Lit) {
		return false
	}
	for i, l := range a.Lit {
		if b.Lit[i] != l {
			return false
		}
	}
	if !a.HasPat {
		return true
	}
	t, ok := pgThreadAt(b, len(a.Lit))
	return ok && t == a.Pat
}

// remove drops job i and marks its slice finished.
func (l *pgJobList) remove(i int) {
	if l.done == nil {
		l.done = map[string]bool{}
	}
	l.done[l.jobs[i].key] = true
	l.jobs = append(l.jobs[:i], l.jobs[i+1:]...)
}

// again lists the jobs to explore in the second pass: every job made and
// not covered by another, finished or not.
func (l *pgJobList) again() []*pgJob {
	var js []*pgJob
	for _, j := range l.all {
		if !j.covered {
			js = append(js, j)
		}
	}
	return js
}
