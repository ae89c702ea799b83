package bench

// This file is the model behind period bench -scaling's second table: how
// long exhausting a bounded space (dfs, ipb, idb, pedal) would take with W
// workers, from the costs of its schedules as one process ran them. Those
// strategies are not split today (docs/parallel.md: their next schedule
// depends on a search tree every schedule changes), so this is the
// expected payoff of work-stealing over subtrees, not a measurement of it.
//
// The model, and why each term is there:
//
//   - Schedules keep their measured costs and their exploration order.
//     Stateless search replays every schedule from the start of the test,
//     so a schedule costs the same whichever worker runs it, and a subtree
//     of a depth-first search is a run of consecutive schedules.
//   - Schedule 1 runs alone: the tree is discovered as schedules run, and
//     until the first one ended there is no branch to hand to anyone.
//   - Work-stealing: a worker with nothing left steals from the worker with
//     the most schedules not yet started the later half of them (by count:
//     a thief does not know the costs ahead). The first worker's own unit
//     is the whole space. Optimistic: a real tree splits only at its
//     branches, whose subtrees need not be halves, and the levels of
//     ipb/idb/pedal are discovered as the search goes, which the model
//     ignores.
//   - A steal is made only if the victim's schedules not started would take
//     it, at the mean cost of the schedules run so far, more than two
//     process starts: taking half of them saves time only then. Without
//     this cut-off extra workers would make an exhaustion slower, which no
//     sensible scheduler does; with it, past the point where coordination
//     dominates, workers stay idle and the time stops falling.
//   - Model.Start per unit, paid by the worker before its first schedule
//     of that unit: a unit is explored in a process of its own, as a
//     round of period test -p is, so each costs a process start of the
//     test binary (measured, not assumed) and nothing else; the learned
//     state a stolen subtree would carry (a few KB) is left out. Process
//     starts overlap, as on many machines: a single coordinator forking
//     them all would serialize part of each.
//   - Model.Merge per schedule, paid by one coordinator, one schedule after
//     the other as their reports arrive: the command reads every schedule's
//     report and adds it to the total (runner.MergeCost), so that part
//     never runs in parallel however many workers there are. Optimistic
//     again: today's split reads a process's reports when it has ended,
//     which would add the merge of the last units at the end.
//
// It is deterministic: no randomness, ties go to the lowest worker.

// Model is the cost model of exhausting a bounded space with many workers.
type Model struct {
	Start float64 // seconds a worker pays for each unit it takes: a process start
	Merge float64 // seconds the coordinator pays per schedule reported
}

// Sim is the model's outcome for one number of workers.
type Sim struct {
	Workers int
	Time    float64 // seconds to exhaust the space, the merge included
	Lower   float64 // the model's lower bound (Model.Lower)
	Units   int     // units of work taken: the first worker's and each steal
	Bound   string  // which term dominates the lower bound: "work", "process starts" or "merge"
}

// Simulate runs the model on costs (seconds per schedule, in exploration
// order) with the given number of workers.
func (m Model) Simulate(costs []float64, workers int) Sim {
	s := Sim{Workers: workers, Lower: m.Lower(costs, workers), Bound: m.bound(costs, workers)}
	if len(costs) == 0 || workers < 1 {
		return s
	}
	type worker struct {
		lo, hi int     // schedules not started yet: costs[lo:hi]
		at     float64 // when the current process start or schedule ends
		busy   bool
		runs   bool // a schedule runs (not a process start)
	}
	ws := make([]worker, workers)
	ws[0] = worker{lo: 0, hi: len(costs), at: m.Start, busy: true}
	s.Units = 1
	discovered := false // schedule 1 ended: there are branches to steal
	merged := 0.0       // when the coordinator has merged every report so far
	now := 0.0
	done, doneWork := 0, 0.0 // schedules ended so far and their costs
	for {
		// The next event: the earliest end of a start or a schedule.
		k := -1
		for i := range ws {
			if ws[i].busy && (k < 0 || ws[i].at < ws[k].at) {
				k = i
			}
		}
		if k < 0 {
			break
		}
		w := &ws[k]
		now = w.at
		if w.runs { // a schedule ended: its report goes to the coordinator
			discovered = true
			done++
			doneWork += costs[w.lo-1]
			merged = max(merged, now) + m.Merge
		}
		if w.lo < w.hi {
			w.at = now + costs[w.lo]
			w.lo++
			w.runs = true
		} else {
			w.busy, w.runs = false, false // the unit is done
		}
		if !discovered {
			continue
		}
		for i := range ws {
			if ws[i].busy {
				continue
			}
			v := -1
			for j := range ws {
				if n := ws[j].hi - ws[j].lo; n >= 2 && (v < 0 || n > ws[v].hi-ws[v].lo) {
					v = j
				}
			}
			if v < 0 || float64(ws[v].hi-ws[v].lo)*doneWork/float64(done) <= 2*m.Start {
				break // nothing worth stealing now, from anyone
			}
			half := (ws[v].hi - ws[v].lo) / 2
			ws[i] = worker{lo: ws[v].hi - half, hi: ws[v].hi, at: now + m.Start, busy: true}
			ws[v].hi -= half
			s.Units++
		}
	}
	s.Time = max(now, merged)
	return s
}

// Lower is a lower bound of Simulate's time: schedule 1 runs alone after a
// process start and the rest of the work at best on every worker at once;
// the costliest schedule runs after a process start; the coordinator
// merges every schedule one after the other, from schedule 1's report on.
func (m Model) Lower(costs []float64, workers int) float64 {
	if len(costs) == 0 || workers < 1 {
		return 0
	}
	work, top := workOf(costs)
	return max(m.Start+costs[0]+(work-costs[0])/float64(workers), m.Start+top, m.Start+costs[0]+m.Merge*float64(len(costs)))
}

// bound names the largest of the lower bound's terms as the workers see
// them: their share of the work, a process start, the merge, the longest
// schedule (which no worker can split).
func (m Model) bound(costs []float64, workers int) string {
	work, top := workOf(costs)
	terms := []struct {
		t    float64
		name string
	}{{work / float64(max(workers, 1)), "work"}, {top, "longest schedule"}, {m.Start, "process starts"}, {m.Merge * float64(len(costs)), "merge"}}
	best := terms[0]
	for _, x := range terms[1:] {
		if x.t > best.t {
			best = x
		}
	}
	return best.name
}

// Limits are the numbers of workers beyond which the model stops scaling:
// coord, where a worker's share of the work falls below one process start
// (each worker pays at least one: coordination dominates); merge, where the
// coordinator's merge of every schedule takes longer than a worker's share
// (the serial merge dominates); longest, where a share is shorter than the
// longest schedule, which one worker runs whole. Beyond len(costs) workers
// some get no schedule at all.
func (m Model) Limits(costs []float64) (coord, merge, longest float64) {
	work, top := workOf(costs)
	if m.Start > 0 {
		coord = work / m.Start
	}
	if m.Merge > 0 && len(costs) > 0 {
		merge = work / (m.Merge * float64(len(costs)))
	}
	if top > 0 {
		longest = work / top
	}
	return coord, merge, longest
}

// workOf is the sum and the largest of costs.
func workOf(costs []float64) (work, top float64) {
	for _, c := range costs {
		work += c
		top = max(top, c)
	}
	return work, top
}
