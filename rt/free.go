//go:build go1.21

package rt

import (
	"testing"

	"github.com/period-dev/period/strategy"
	"github.com/period-dev/period/trace"
)

// Free mode (Config.Parallel): once a strategy releases a run (PERIOD's last
// period, strategy.Releaser), its goroutines run truly in parallel. Only key
// points are serialized, by a token: e.cur is the goroutine whose key point
// is under way. A goroutine reaching a key point queues (it parks); when the
// token is free it goes to one of the queued goroutines whose operation is
// ready (drawn by a PRNG: who has queued is up to the real timing), and that
// decision is recorded in e.log like any other step.
//
// Why the record is exact, so that the serial replayer reproduces the run:
// the token is held from the decision until the real operation has happened,
// so the model and the real objects never disagree at a decision, and the
// recorded order is the order of the real operations.
//   - Channel send, receive and close: the hook performs the real operation,
//     then gives the token back (opDone). A rendezvous partner completes its
//     half while the token holder waits in the real operation for it.
//   - Modelled operations (sync, sleep, yield): the hook ends the turn once
//     the model is updated (hookDone); so does a goroutine's start. Now and
//     then (freeHold) they keep the token until the next key point instead:
//     holding it longer is always exact, and it lets a goroutine's next key
//     point race the others'.
//   - Memory accesses, atomics, sync.Map calls and select: the real
//     operation happens in user code after the hook returns, so the token is
//     kept until the goroutine's next key point (or its exit).
//   - Code between key points touches only memory that no other goroutine
//     touches without a key point (an address becomes shared, and its
//     accesses key points, at its second goroutine's first access), unless
//     it races, which the vector clocks, updated at the decisions, report.
//   - Virtual time moves only when every goroutine waits at a key point and
//     none is ready, the state the serial engine sees too.
//   - A goroutine's first access to an address that another goroutine
//     touched makes the address shared, and its later accesses key points;
//     in free mode that can happen in another order than in the serial
//     replay, which runs each goroutine's steps up to its next key point at
//     once. So a bug found in free mode is reported only once a serial
//     replay of its record, in process, reproduced it (confirm).
//   - Real operations without a key point (timer Stop/Reset, context
//     cancellation, t.Run) end free mode for the rest of the run (leaveFree):
//     their place among the others' key points would not be recorded.
// Which goroutine comes first depends on the real timing: free runs are
// reproduced by their replay files, not by the seed.

// anyAlive reports whether a controlled goroutine has not exited yet.
func (e *engine) anyAlive() bool {
	for _, g := range e.gs {
		if g.status != gDone {
			return true
		}
	}
	return false
}

// anyAliveButDaemons reports whether a controlled goroutine other than
// the process's daemons (gstate.daemon) has not ended: go test waits for
// none of them, and neither does a run once its test returned (unless
// they are to be reported: -leaks=any).
func (e *engine) anyAliveButDaemons(withDaemons bool) bool {
	for _, g := range e.gs {
		if g.status != gDone && (withDaemons || !g.daemon) {
			return true
		}
	}
	return false
}

// anyRunning reports whether a controlled goroutine runs between key points.
func (e *engine) anyRunning() bool {
	for _, g := range e.gs {
		if g.status == gRunning {
			return true
		}
	}
	return false
}

// freeHold: one turn in freeHold keeps the token until the next key point.
const freeHold = 4

// hookDone ends a hook of g whose operation is complete (e.mu held): in free
// mode g's turn ends, and a goroutine queued for its key point may go.
func (e *engine) hookDone(g *gstate) {
	if e.free && (e.cur == nil || e.cur == g && e.frand.Intn(freeHold) != 0) && !e.finished {
		e.cur = nil
		e.decide(nil)
	}
	e.mu.Unlock()
}

// opDone is hookDone after a real operation performed outside e.mu.
func (e *engine) opDone(g *gstate) {
	if g == nil || !e.cfg.Parallel {
		return
	}
	e.mu.Lock()
	e.hookDone(g)
}

// leaveFree ends free mode for the rest of the run before g performs a real
// operation that has no key point: g waits for the token, then runs as the
// current goroutine of a serial run. Goroutines still running free settle
// at their next key point before the next decision, like rendezvous
// partners. e.mu is held.
func (e *engine) leaveFree(g *gstate) {
	if !e.free || g == nil {
		return
	}
	e.leaving = true
	for e.free && e.cur != nil && e.cur != g && !e.finished {
		e.cond.Wait()
	}
	if e.finished {
		g.status = gDone
		e.mu.Unlock()
		g.unwind()
	}
	if !e.free {
		// Another goroutine took control back first: g settles like the
		// other free runners, so it waits for its turn.
		e.settle(g)
		g.status = gParked
		g.p = pending{op: strategy.OpResume, site: g.lastSite}
		e.seq++
		g.seq = e.seq
		e.parked(g)
		e.park(g)
		return
	}
	e.free, e.freeOver, e.leaving = false, true, false
	for _, o := range e.gs {
		if o.status == gRunning && o != g && !o.settling {
			o.settling = true
			e.transit++
		}
	}
	e.cur = g
	g.status = gRunning
}

// reportEnd reports b, found as g ended (a panic, or the test failed). In
// free mode the key points that other goroutines took after g's last one ran
// concurrently with g's final steps, which the serial replay runs before
// anything else: the record ends at the last step g took part in.
func (e *engine) reportEnd(g *gstate, b bug) {
	if e.free {
		b.upTo = g.lastEv + 1
	}
	e.report(b)
}

// confirm replays tr, a bug found in free mode, with the serial replayer in
// this process, and reports whether the same bug happened with no
// divergence. The exploration's state survives the replay.
func (e *engine) confirm(t *testing.T, tt Test, cfg Config, tr *trace.Trace, restores []func()) bool {
	ecfg, strat, rel := e.cfg, e.strat, e.releaser
	shared, learned, seen := e.mem.shared, e.mem.learned, e.race.seen
	e.race.seen = map[[2]string]bool{}
	c := *tr
	c.Schedule = 0 // a name of its own: the runner must not take its t.Error lines for the schedule's
	s := replayOne(t, tt, cfg, &c, restores)
	e.cfg, e.strat, e.releaser = ecfg, strat, rel
	e.mem.shared, e.mem.learned, e.mem.frozen, e.race.seen = shared, learned, false, seen
	if s.Diverged != "" {
		return false
	}
	for _, b := range s.Bugs {
		if b.Kind == tr.Kind && b.Location == tr.Location {
			return true
		}
	}
	return false
}
