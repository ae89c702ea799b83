//go:build go1.21

package strategy

// This file holds PERIOD's feedback analyzer (section 3.4 of the paper):
// when a run covers a slice that the schedules of its job cannot host, a
// new job is made for that slice, with a schedule prefix that should lead
// later runs back into it.

// pgJob is a slice still to explore and the prefix leading to it.
type pgJob struct {
	key string  // identity of the slice (its threads' paths and sites)
	sl  pgSlice // key point counts, what the generators need
	pre pgPrefix
}

// pgSupported reports whether slice a is supported by slice b: no thread
// has more key points in a than in b, so b's schedules have room for a's
// key points.
func pgSupported(a, b pgSlice) bool {
	for i, t := range a.T {
		j := b.index(t)
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
	l.jobs = append(l.jobs, &pgJob{key: key, sl: sl, pre: pre})
}

// remove drops job i and marks its slice finished.
func (l *pgJobList) remove(i int) {
	if l.done == nil {
		l.done = map[string]bool{}
	}
	l.done[l.jobs[i].key] = true
	l.jobs = append(l.jobs[:i], l.jobs[i+1:]...)
}
