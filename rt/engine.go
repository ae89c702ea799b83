//go:build go1.21

package rt

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/period-dev/period/strategy"
	"github.com/period-dev/period/trace"
)

// The engine runs one controlled execution (a "run", one schedule) at a time.
// Exactly one controlled goroutine, e.cur, executes user code; every other
// controlled goroutine is parked at a key point with its pending operation
// recorded. At each key point the current goroutine asks the strategy which
// enabled goroutine goes next and hands control over directly (no central
// scheduler goroutine: one channel hand-off per switch, none when the same
// goroutine continues).
//
// A goroutine is enabled when its pending operation can complete now
// (ready). Blocking is therefore never real: a goroutine whose operation is
// not ready simply stays parked, and the engine knows what it waits for.
// The exceptions are rendezvous on unbuffered channels, where the partner is
// woken to perform its half ("settling": it runs to its next key point while
// the current goroutine waits for it at its own next key point), and code the
// engine does not control, covered by a watchdog.

type gstatus uint8

const (
	gRunning  gstatus = iota // current, or settling after a rendezvous
	gParked                  // waiting at a key point
	gDone                    // exited
	gDetached                // outside control: spun too long without a key point, or blocked in uncontrolled code
	gSubtest                 // blocked in t.Run while its subtest goroutine runs
)

// pending is the operation a parked goroutine will execute when chosen.
type pending struct {
	op         strategy.Op
	site       string
	obj        uintptr
	ch         *hchan // channel operations (nil channel: never ready)
	cases      []Case // select
	hasDefault bool
	wakeAt     int64 // sleep: virtual time to wake at
	ready      func() bool
	bubbleWait bool // synctest.Wait: ready when every other goroutine is blocked
	// The common waits without a closure (no allocation per key point).
	wait waitKind
	mm   *mutexModel     // waitLock, waitReaders
	cnt  *int            // waitWG: the WaitGroup's counter
	wg   *sync.WaitGroup // WGWait: the WaitGroup, whose own counter goroutines outside control may hold (realWGCount)
}

type waitKind uint8

const (
	waitNone    waitKind = iota
	waitLock             // the mutex is free and no writer announced itself
	waitReaders          // RWMutex writer: the readers left
	waitWG               // the counter is zero
)

type gstate struct {
	cases    []Case // the cases of its select (Select), reused from select to select
	id       strategy.GID
	path     string
	goid     int64
	status   gstatus
	wake     chan struct{}
	p        pending
	seq      uint64 // order of arrival at the current key point (FIFO for partners)
	children int
	parent   *gstate
	plain    bool   // measuring its own allocations (AllocsPerRun): its hooks act as outside control
	entry    func() // its function, while it waits for its start key point (Stack)

	fired    int    // select case chosen for this goroutine (by the scheduler or a partner)
	caseSite string // the select site, ready count and case of its last choice among ready cases, and how many times in a row (fairCase)
	caseN    int
	caseK    int
	caseRun  int
	partner  bool       // woken to complete a rendezvous started by the current goroutine
	commit   int        // blocked in a select: the case (+1) that became ready first (0: none; see commitCase)
	claimed  uint64     // the seq of its key point at which a goroutine outside control chose to complete its channel operation (partnerBlocked)
	settling bool       // running to its next key point after a rendezvous
	abort    bool       // the run is over: unwind
	t        *testing.T // test and subtest goroutines: unwound with SkipNow, as testing requires
	lastSite string
	kps      int          // key points executed in this run
	born     int          // key points the parent had executed when it started g
	lastEv   int          // index in e.log of the last step g took part in (its own, or as a partner)
	passed   int          // decisions since g last ran at which g was enabled and another goroutine was chosen
	vc       vc           // vector clock (race detection)
	slot     strategy.GID // its entry in vector clocks: reused after goroutines end (raceState.takeSlot)
	floor    uint32       // the slot's entry when g took it: the previous holder's last (timerStart)
	accessAt uint32       // g's entry at its latest recorded access (raceState.freeSlot)
	sub      *subtest     // subtests made by TRun, and tests with parallel subtests
	cleanups []func()     // t.Cleanup functions of the (sub)test run by this goroutine
	tctx     *vctx        // t.Context() of the (sub)test run by this goroutine, once asked for
	created  string       // site of the go statement that started g
	creator  uintptr      // pc in the function that executed it (resolved only for reports)
	ioProbe  int          // e.steps+1 when probeIO last armed a look at it
	// ioProbeGen, ioProbeStep: the run and step probeIO armed its look at;
	// ioTimer: that look's timer, reused.
	ioProbeGen  uint64
	ioProbeStep int
	ioTimer     *time.Timer
	// childWait: it used a child process (os/exec.Cmd, os.Process)
	// since its last key point, from childAt on; detached meanwhile, it
	// waits for the child, which ends by itself, and the clock keeps to
	// real time.
	childWait bool
	childAt   time.Time
	// inTRun: it waits in t.Run for package testing to end a subtest
	// for real (TRun): Period's own wait, short (a TempDir's removal),
	// which the watchdog must not take for the program's and detach.
	inTRun bool

	inCand    bool        // in e.rs.cand (ready.go)
	fast      bool        // parked at an operation always ready: in e.rs.en without being a candidate
	lockOK    bool        // parked at a waitLock found ready: in e.rs.en and p.mm.lockReady, not a candidate
	lockGen   uint32      // tells live entries of lockReady from stale ones
	inEn      bool        // in the enabled set (e.rs.en once flushed)
	placed    bool        // in e.rs.en
	queued    bool        // in e.rs.ins
	dirty     bool        // in e.rs.dirty
	newEv     bool        // parked anew since its event in e.rs.evs was written
	passedAt  int         // in e.rs.en: passed is passedAt + e.rs.decisions
	enAt      int         // index in e.rs.en when last looked for (a hint)
	vPassed   int         // passed as a full pass counts it (verifyReady)
	blocked   bool        // parked, not ready, registered under what it waits for
	waited    bool        // its channel operation was found blocked: Go has queued it (chanReady)
	lockQ     *mutexModel // the mutex whose queue of blocked Lock callers holds g (lockTurn)
	blockGen  uint32      // tells live registrations from stale ones
	misses    uint8       // decisions in a row at which g, a candidate, was not ready
	helper    bool        // started by Period on the standard library's behalf: never a leak
	daemon    bool        // started by a package-level sync.Once's function (PackageOnceDo): never a leak
	onceDepth int         // package-level Once functions g is running (PackageOnceDo)
	// Spin parking (spin.go): the objects g polled since its last effect,
	// whether there were too many, whether g waits at a Gosched for one of
	// them to be written, and the address of a CompareAndSwap in progress.
	spinKeys []uintptr
	spinMany bool
	spinPark bool
	casAt    uintptr
	yields   int // Gosched calls in a row with no key point between them (spin.go: pureYield)
	skips    int // hooks called after the run ended (enter: maxSkips)
}

// choiceRec is an open choice made after the first at events of the run.
type choiceRec struct{ at, n, k int }

// entries renders the run so far as replay entries.
// upTo > 0 keeps only the first upTo events (and the choices made by them).
func (e *engine) entries(upTo int) []trace.Entry {
	n, choices := e.log.Len(), e.choices
	if upTo > 0 && upTo < n {
		n = upTo
		for len(choices) > 0 && choices[len(choices)-1].at > upTo {
			choices = choices[:len(choices)-1]
		}
	}
	out := make([]trace.Entry, 0, n+len(choices))
	c := 0
	for i := 0; i < n; i++ {
		ev := e.log.At(i)
		for c < len(choices) && choices[c].at == i {
			out = append(out, trace.Entry{Choice: true, N: choices[c].n, K: choices[c].k})
			c++
		}
		out = append(out, trace.Entry{G: pathOf(ev.G), Op: ev.Op.String(), Site: ev.Site})
	}
	for ; c < len(choices); c++ {
		out = append(out, trace.Entry{Choice: true, N: choices[c].n, K: choices[c].k})
	}
	return out
}

func pathOf(g strategy.GID) string {
	pathMu.Lock()
	defer pathMu.Unlock()
	return paths[g]
}

// bug is one finding of a run.
type bug struct {
	kind     string
	message  string
	location string
	// Leaks and deadlocks: where the goroutine at location was created
	// (the go statement) and the function that executed it.
	created, createdBy string
	key                string // identity for reporting each distinct bug once ("" = derived)
	failFirst          string // a fail: the first line of the first t.Error or t.Fatal message (failFirst)
	upTo               int    // events the replay record keeps (0: all; see reportEnd)
	clockRead          bool   // the program had read the clock (BugReport.ClockRead)
}

type engine struct {
	mu   sync.Mutex
	cond *sync.Cond // transit changes and run end

	cfg    config
	strat  strategy.Strategy
	replay *replayer

	active  atomic.Bool // a controlled run is in progress
	prelude atomic.Bool // tests before the explored one run natively (runPrelude): goroutine listings still leave Period out
	// solo: the run has had one thread of control so far (the test
	// goroutine, and subtests it waited for in t.Run one at a time): its
	// memory accesses need no race state.
	solo atomic.Bool
	// soloGoid is the test goroutine's goid once it has made
	// soloRecordLimit plain accesses as the run's only goroutine, until
	// another starts; else 0. Its accesses at sites not known shared then
	// take a path without the engine's lock and record nothing (access).
	soloGoid   atomic.Int64
	soloPlain  atomic.Int64 // plain accesses made on that path (plainAccesses)
	soloSeen   int          // plain accesses recorded while the test goroutine was alone
	soloSites  [256]soloSite
	parRunning int // parallel subtests holding a slot (parallelLimit)
	runIdx     int

	gs            []*gstate
	byGoid        *gTable
	cur           *gstate
	transit       int               // goroutines settling after a rendezvous
	yielder       *gstate           // yielded last; not enabled again until another goroutine steps
	releaser      strategy.Releaser // the strategy, when it may release runs to free mode (Config.Parallel)
	free          bool              // free mode (free.go): e.cur is the goroutine whose key point is under way
	freeOver      bool              // free mode was left in this run; it does not come back
	leaving       bool              // a goroutine waits to take control back from free mode
	frand         strategy.SplitMix // free mode's PRNG: who has queued is up to the real timing
	outside       int               // hooks called by goroutines outside control in this run
	outsideGs     outsideSet        // which goroutines called them (outsideSet.gone)
	testStepAt    int64             // the clock when a test or subtest goroutine last took a step (virtualTimeout)
	undetaches    int64             // detached goroutines back in this run (outsideSilent)
	silentSig     int64             // signs of life of goroutines outside control or detached, as outsideSilent last saw them
	silentFrom    time.Time         // since when they have been the same
	silentJumps   int               // clock jumps since then
	baseG         int               // goroutines of the process that are neither Period's nor new in this run (freshOutside)
	outsideSeen   int               // goroutines beyond them already given a grace (freshOutside)
	waitFlips     uint64            // how many times a goroutine was found queued on a channel (gstate.waited): parkList.first's clock
	replayBase    time.Time         // where a replay's virtual clock starts: its record's (restartClock)
	firstBase     time.Time         // where schedule 1's clock started in this process (BugReport.FirstClockBase)
	testHash      uint64            // of the explored test's name: its runs' random numbers are its own (runSeed)
	detached      int
	graceFrom     time.Time     // when the run began waiting for detached goroutines before the clock could move (outsideGrace)
	graceStep     int           // the step it began at
	graceFor      time.Duration // how long it waits (outsideGrace)
	graceV        int64         // virtual time when it began (after catching up with real time)
	graceFresh    bool          // it waits for fresh goroutines outside control only
	childFrom     time.Time     // when the run first used a child process (childLead)
	childV        int64         // virtual time then
	realAnchor    time.Time     // when a goroutine began to wait for real (network, a child process) while none else did (catchUp); zero: none waits
	vAnchor       int64         // the virtual instant then
	anchorOutside bool          // realAnchor was set by a wait for goroutines outside control: it ends at the next step

	// waitedReal is the real time since realAnchor during which no
	// controlled goroutine ran (the engine idle, or the current goroutine
	// blocked for real before it was detached): what catchUp adds. Time
	// while controlled goroutines step is theirs, in steps: an
	// instrumented server answering slowly must not make a client's
	// 100 ms deadline expire (grpc-middleware's timeout tests).
	waitedReal time.Duration
	idleFrom   time.Time // when the engine last went idle (e.idle)

	idle            bool                        // decide left nobody current to wait for goroutines outside control or detached (kickIdle)
	settlingOutside bool                        // settleOutside waits, e.mu released, for goroutines outside control (the watchdog leaves e.cur alone)
	handedOut       int                         // values a controlled send or receive exchanged with a goroutine outside control in this run: its work may wake controlled ones (outsideGrace)
	failFirst       string                      // the run's first t.Error or t.Fatal message, its first line (tlog.go)
	realDeadlines   []realDeadline              // Done channels of contexts with a real deadline that controlled goroutines took (realdeadline.go)
	fileKinds       map[*os.File]bool           // per file used in this run: a pipe or a socket (realio.go)
	connDeadlines   map[connDeadlineKey]*vtimer // deadlines of the standard library's connections, on the virtual clock (realio.go)
	outsideSleeping atomic.Int32                // goroutines outside control in a real time.Sleep (outsideGrace waits for them)
	unregistered    int                         // goroutines spawned that have not yet run far enough to be in byGoid (Stack waits for them)
	signalAt        time.Time                   // when the process last sent itself a signal (SyscallKill)
	gcAt            time.Time                   // when a controlled goroutine last called runtime.GC (collected)
	seq             uint64
	steps           int
	clockRead       bool           // the program read the clock in this run (time.Now, Since, Until): its replay may need the run's clock base
	bubble          bool           // inside synctest.Test: the clock is exact (no drift, see now)
	preBubble       map[int64]bool // the goroutines there when the bubble began: not the bubble's (bubbleOutsideBlocked)
	bubbleRoot      int64          // the goroutine that called synctest.Test: of the bubble
	drift           int64          // virtual time passed since the clock last moved (time.go: vnow)
	nowStreak       int            // time.Now readings since the step nowSince (time.go: nowDrift)
	nowSince        int
	loads           int       // atomic operations since lastEffect (time.go: loadDrift)
	jumpTo          int64     // an early wake-up chosen in this step: the clock jumps there at the next decision (time.go: early)
	spinners        []*gstate // goroutines parked at a Gosched (spin.go), some maybe woken since
	spinParked      int       // how many of them are still parked
	// detachedHooks counts hooks called by detached goroutines: one that
	// keeps calling them runs instrumented code (slowly, on a loaded
	// machine), which the watchdog tells from a spin without any.
	detachedHooks int64
	// workHooks is detachedHooks at the last look of detachedWorking (or
	// at the detach), workFrom when that work began.
	workHooks    int64
	workFrom     time.Time
	workSeen     time.Time              // when the last look found new hooks
	workDetach   bool                   // a goroutine was detached computing, not blocked, since detached was last 0
	alts         int                    // decisions of this run with more than one goroutine enabled
	everDetached bool                   // a goroutine of this run was detached (ran outside control)
	randSrc      *lockedSource          // the run's source of map order, crypto/rand and math/rand/v2, made at first use (rand.go)
	mathRandSrc  *lockedSource          // the run's source of math/rand, made at first use or by its Seed
	bubbleAt     int64                  // the clock when the synctest bubble began
	forced       int                    // decisions in this run where fairness overrode the strategy (unfairBound)
	lastEffect   int                    // the last step whose operation can change state (not a poll: Op.IsPoll)
	pollYields   int                    // yields, selects and try-locks since lastEffect
	progress     atomic.Int64           // steps taken, read by the watchdog
	inSubtest    atomic.Pointer[string] // the subtest started last and still running, for progress lines (TRun)
	// outsideSelects holds, per goroutine outside control in a select
	// without default, the channels the engine looks at while it blocks
	// (watchOutsideSelect) and those SelectDone releases (outsideChan);
	// keyed by goroutine id, under outsideMu.
	outsideMu      sync.Mutex
	plainGoid      atomic.Int64 // the goroutine in plain mode (AllocsPerRun), 0 if none
	outsideSelects map[int64]*outsideWait
	blockedOutside blockedOutside // channels goroutines outside control are blocked on (blockingOutside)
	wgWaits        int            // controlled goroutines in WaitGroup.Wait (waitsForOutsideCount)
	countWaitFrom  time.Time      // when the run began waiting, at step countWaitStep, for counts outside control (waitsForOutsideCount)
	countWaitStep  int
	countLookArmed bool         // a look at those counts is scheduled
	stepStamp      atomic.Int64 // real time (UnixNano) of a recent step, taken every stampEvery+1 steps (catchUp's anchor)

	log     stepLog     // every step of the run (steplog.go)
	choices []choiceRec // open choices, by position among the steps

	stopping    bool   // a bug ended the run: everybody unwinds
	outsideWait string // the run was abandoned: a goroutine waited too long in uncontrolled code
	cut         bool   // the run reached its step limit without being a hang (config.cutAtLimit)
	finished    bool   // the run is over (all done, all blocked, or stopped)
	rootDone    bool
	// advances of virtual time since the test returned: goroutines that a
	// ticker (or a timer loop) keeps waking after the test returned are a
	// leak once there were timerLeakAdvances of them.
	afterRoot int
	rootAt    int64 // virtual time when the test returned
	rootSteps int   // steps when the test returned
	burstFrom int   // steps when the test returned or, after it, a timer last fired (afterRootSteps)
	// plainAccesses counts the memory accesses of the run that were not key
	// points (not yet seen shared). A later schedule makes key points of
	// the sites an earlier one saw shared, so the first schedule's steps
	// alone undercount the work a schedule of the test does (the derived
	// step limit, config.stepLimit).
	plainAccesses int
	// loopWork counts pollWork for each iteration of a bounded loop that
	// polls (Iteration); plainAtPoll is workDone at the last poll that was
	// chosen (pollWork).
	loopWork    int
	plainAtPoll int
	workAt      int // workDone when workDrift last moved the clock
	// timerWaitStep and timerWaitFrom: the step at which the run began
	// waiting for real timers armed outside control, and when
	// (outsideTimerWait).
	timerWaitStep int
	timerWaitFrom time.Time
	runDone       chan struct{}
	exited        *sync.WaitGroup // real goroutines of the run, for teardown (a new one each run: one left blocked for real must not hold up the next runs' teardowns)
	bugs          []bug
	replayBug     func(bug) // a replay's bug, written as found: the process may not live to its summary
	runGen        uint64    // counts runs in this process (runIdx restarts with every test)
	exitArmed     uint64    // runGen of the run whose process exitIfStuck ends if it stays stuck
	traceTo       *os.File  // crash recovery: every step goes to disk as it happens
	failed        func() bool

	models modelState
	clock  vclock
	mem    memState
	race   raceState
	rs     readySet // incremental enabled set (ready.go)

	// Goroutines that predate the process's first run (started by init or
	// TestMain: firstRunGoid is the first run's root, goids only grow)
	// and ran the program's code within bgQuiet of real time (bgAt), or
	// that hold a fast real ticker (bgtickers.go): a flusher, a janitor. A
	// run that starts so (bgLive) treats them as its own goroutines outside
	// control from its first step, not only once one of them ran in it (a
	// run takes less than a tick), so the clock does not jump past their
	// next tick before they had a chance to run.
	firstRunGoid atomic.Int64
	bgAt         time.Time
	bgLive       bool
}

// Global interning of goroutine paths: GIDs are stable across runs of a process.
var (
	pathMu  sync.Mutex
	pathIDs = map[string]strategy.GID{}
	paths   []string
)

func internPath(p string) strategy.GID {
	pathMu.Lock()
	defer pathMu.Unlock()
	if id, ok := pathIDs[p]; ok {
		return id
	}
	id := strategy.GID(len(paths))
	pathIDs[p] = id
	paths = append(paths, p)
	return id
}

func allPaths() []string {
	pathMu.Lock()
	defer pathMu.Unlock()
	return append([]string(nil), paths...)
}

var eng = newEngine()

func newEngine() *engine {
	e := &engine{byGoid: newGTable(), exited: new(sync.WaitGroup)}
	e.cond = sync.NewCond(&e.mu)
	return e
}

// hookCount counts the hooks that goroutines the watchdog cannot see at key
// points have called: detached ones, and the test goroutine alone on the
// solo path (access). One that keeps calling them is busy, not hung. e.mu
// is held.
func (e *engine) hookCount() int64 { return e.detachedHooks + e.soloPlain.Load() }

func (e *engine) newG(parent *gstate) *gstate {
	path := "0"
	if parent != nil {
		parent.children++
		path = parent.path + "." + strconv.Itoa(parent.children)
	}
	g := &gstate{id: internPath(path), path: path, wake: make(chan struct{}, 1), parent: parent, fired: -1}
	e.gs = append(e.gs, g)
	e.rs.live = append(e.rs.live, g)
	e.solo.Store(len(e.gs) == 1)
	if len(e.gs) > 1 {
		e.soloGoid.Store(0)
	}
	return g
}

// soloHandOver: the run's only thread of control moves to another
// goroutine (a sequential subtest starts, or returns to its parent). The
// path without bookkeeping (access) is taken by one goroutine at a time:
// the new one takes it at its next recorded access, if the run's solo
// accesses have reached soloRecordLimit. e.mu is held.
func (e *engine) soloHandOver() {
	e.solo.Store(true)
	e.soloGoid.Store(0)
}

// soloOwner is the goroutine id memory records take as an address's
// owner: while the run is solo, all its goroutines are one thread of
// control, and an address a subtest shares with its parent is no shared
// memory. e.mu is held.
func (e *engine) soloOwner(g *gstate) strategy.GID {
	if e.solo.Load() {
		return e.gs[0].id
	}
	return g.id
}

// mode tells a hook how to behave for the calling goroutine.
type mode uint8

const (
	modePlain   mode = iota // not controlled: perform the plain operation
	modeControl             // controlled: e.mu is held and g is returned
	modeSkip                // the goroutine is unwinding an ended run: do nothing
)

// maxSkips is how many hooks a goroutine may call after its run ended
// before the deferred call it is in is ended (enter); a Gosched counts
// skipYield times. A spin on a lock whose holder was unwound never ends.
const (
	maxSkips  = 1 << 20
	skipYield = 64
)

// enter identifies the calling goroutine. With modeControl it returns with e.mu held.
func (e *engine) enter() (*gstate, mode) {
	return e.enterAs(true)
}

// enterAs is enter; countOutside false does not count the call of a
// goroutine outside control as one of its key points (the second hook of
// one operation).
func (e *engine) enterAs(countOutside bool) (*gstate, mode) {
	if !e.active.Load() {
		return nil, modePlain
	}
	id := goid()
	e.mu.Lock()
	g := e.byGoid.get(id)
	if g != nil && (g.abort || e.finished) {
		// Unwinding (its status is already gDone): deferred unlocks and
		// the like must not touch the real objects, which the model owned.
		g.skips++
		stuck, unwinding := g.skips > maxSkips, g.status == gDone
		e.mu.Unlock()
		if stuck {
			// Its deferred code polls for something that can no longer
			// happen (a spin lock held by a goroutine that was unwound in
			// its critical section): end that deferred call, so that the
			// run returns and exploration goes on.
			if unwinding {
				runtime.Goexit()
			}
			g.unwind()
		}
		return g, modeSkip
	}
	if g != nil && g.plain {
		e.mu.Unlock()
		return nil, modePlain
	}
	if g == nil || g.status == gDone {
		if g == nil && !e.finished && countOutside {
			// A goroutine started by code Period does not instrument (a
			// library's worker) runs instrumented code: not explored, but
			// counted, so that the report can say so.
			e.outside++
			e.outsideGs.add(id)
			if id < e.firstRunGoid.Load() {
				e.bgAt = time.Now()
			}
		}
		e.mu.Unlock()
		return nil, modePlain
	}
	if g.status == gDetached {
		e.detachedHooks++ // it still runs instrumented code (watchdog)
		e.catchUp()       // it may be back from a real wait: time.Since must show it
	}
	return g, modeControl
}

// point is a key point of g: g.p holds the pending operation. It returns,
// with e.mu held, once g has been chosen to execute it (e.cur == g) or woken
// as a rendezvous partner (g.partner). If the run ends meanwhile, g unwinds
// with runtime.Goexit.
func (e *engine) point(g *gstate) {
	e.seq++
	g.seq = e.seq
	g.lastSite = g.p.site
	if g.t != nil {
		e.testStepAt = e.clock.now
	}
	if g.p.op != strategy.OpYield {
		g.yields = 0
	}
	if g.childWait {
		g.childWait = false
		if time.Since(g.childAt) > childRan {
			e.childUsed() // not only a look at a command (cmd.String())
		}
	}
	if g != e.cur {
		// A settling partner, or a detached goroutine coming back.
		if g.status == gDetached {
			e.undetach()
		}
		g.status = gParked
		e.parked(g)
		e.settle(g)
		if e.cur == nil && (e.transit == 0 || e.free) && !e.finished {
			// Nobody is running (everyone else was blocked or detached): decide now.
			e.decide(g)
			if e.cur == g {
				return
			}
		}
		e.park(g)
		return
	}
	g.status = gParked
	e.parked(g)
	e.decide(g)
	if e.cur == g {
		return
	}
	e.park(g)
}

// settle ends g's transit after a rendezvous: it reached its next key point,
// or ended without one. Every way out of a goroutine must call it, or the
// engine would wait for g forever.
func (e *engine) settle(g *gstate) {
	if g.settling {
		g.settling = false
		e.transit--
		if e.transit == 0 {
			e.cond.Broadcast()
		}
	}
}

// park waits until g is chosen, fired as a partner, or aborted. e.mu is held on entry and exit.
func (e *engine) park(g *gstate) {
	for {
		e.mu.Unlock()
		<-g.wake
		e.mu.Lock()
		if g.abort {
			g.status = gDone
			e.mu.Unlock()
			g.unwind()
		}
		if e.cur == g || g.partner {
			g.status = gRunning
			return
		}
	}
}

// unwind ends g's goroutine, running its deferred calls. A test goroutine
// must not simply Goexit (package testing treats that as a fatal misuse), so
// it leaves through SkipNow.
func (g *gstate) unwind() {
	if g.t != nil {
		g.t.SkipNow()
	}
	runtime.Goexit()
}

func (e *engine) wakeUp(g *gstate) {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// decide picks the next goroutine and makes it current. from is the deciding
// goroutine (parked at its key point) or nil. e.mu is held.
func (e *engine) decide(from *gstate) {
	if e.idle {
		e.waitedReal += time.Since(e.idleFrom)
	}
	e.idle = false
	if from == nil {
		// After an idle wait (a timer or the watchdog decides): the
		// last stamp may be long past.
		e.stepStamp.Store(time.Now().UnixNano())
	}
	if e.free && e.leaving {
		e.cur = nil
		e.cond.Broadcast() // leaveFree takes over
		return
	}
	for e.transit > 0 && !e.finished && !e.free {
		e.cond.Wait()
		if e.cur != nil && e.cur != from {
			// While e.mu was released, the partner in transit reached its
			// next key point, found nobody current and decided itself:
			// deciding again would see no enabled goroutine (the chosen
			// one runs) and report a false deadlock.
			return
		}
	}
	for !e.finished {
		if e.jumpEarly() {
			continue // a timer set in the last step was chosen to fire at once
		}
		if e.spinParked > 0 && e.steps%spinRecheck == 0 {
			// Bounded unfairness for parked spinners too: a write the
			// engine does not see (code outside control) must not keep
			// one parked while others run for ever.
			e.wakeSpinners()
		}
		enabled := e.enabled()
		if e.dueNow() {
			continue // timers fired, sleepers woke: the enabled set changed
		}
		if len(enabled) == 0 {
			if e.wakeSpinners() {
				continue // nothing else can run: the spinners poll again
			}
			if e.free && e.anyRunning() {
				// Free goroutines will reach key points (or exit): not blocked.
				e.cur = nil
				return
			}
			if e.rootDone && e.detached == 0 && !e.anyAliveButDaemons(e.cfg.Leaks == "any") {
				if next := e.clock.nextDue(e, false); next < 0 || next-e.rootAt > int64(afterRootRealWait) {
					// Only timers are left (time.AfterFunc callbacks), none
					// due while goleak would still retry: go test does not
					// wait for them. A cache's next expiration pass, ten
					// virtual seconds on, took 880,000 steps and ended as
					// a leak (muesli/cache2go's TestCount).
					e.finish()
					return
				}
			}
			if e.rootDone && e.afterRoot >= timerLeakAdvances && e.detached == 0 {
				if e.unseenReady() {
					continue
				}
				e.allBlocked()
				return
			}
			signaled := e.selfSignaled()
			outsideCount := e.waitsForOutsideCount()
			waitedFor := e.detached > 0 || signaled || outsideCount || e.handedOut > 0 || e.collected() || e.outside > 0 && !e.outsideGs.gone()
			// Background pacing (bgtickers.go) waits at most for the next
			// timer at each jump, never for something that may not come:
			// it is no reason to give a run up as silent.
			known := waitedFor || e.bgPaced()
			fresh := !known && !e.rootDone && e.freshOutside()
			if e.detached > 0 && !e.bubble && !e.rootDone && e.detachedWorking() {
				// A detached goroutine computes in instrumented code: its
				// work moves the clock (accessesPerNs), as it did while it
				// was current, and a timer fires when the work reaches it,
				// not at a jump. A 4 s deadline set against work of 0.1 s
				// natively, a hundred times as long in real time under
				// Period, fired at the jump (twmb/avro's DoS batteries:
				// "did not return within 4s"). Once the test has
				// returned, no deadline of its own is left to meet.
				e.workDrift()
				if e.dueNow() {
					continue
				}
				e.cur = nil
				e.goIdle()
				e.decideAfter(detachedWorkLook)
				return
			}
			if waitedFor && !e.rootDone && e.outsideSilent() {
				e.abandonSilent()
				return
			}
			if (known || fresh) && !e.rootDone && e.outsideGrace(fresh) {
				// A goroutine blocked for real (network I/O through the
				// standard library), or one outside control that has run
				// the program's code in this run (a handler, a worker a
				// native run left in a pool), usually comes back within
				// milliseconds: jumping the clock to the next timer first
				// would make that I/O look a second long, where a real
				// clock shows a millisecond (failsafe-go's "cancellation
				// should immediately exit" checks). Time waits for it a
				// little; a timer decides again when the grace ends,
				// or a goroutine outside control that wakes one (kickIdle).
				e.cur = nil
				e.goIdle()
				return
			}
			if known && e.bubble && e.unseenReady() {
				// The bubble's clock is about to move for goroutines outside
				// control found durably blocked: one may have just queued on
				// a channel a controlled goroutine waits on, before the
				// engine's look (blockingOutside) made that one ready.
				continue
			}
			if signaled && e.unseenReady() {
				// The runtime delivered the signal on a channel of
				// signal.Notify, outside the model: its receiver runs
				// before time moves on.
				continue
			}
			if waiting, closed := e.waitRealDeadline(); waiting {
				return
			} else if closed && e.unseenReady() {
				continue
			}
			if !e.rootDone && e.detached == 0 && e.clock.now-e.testStepAt >= int64(virtualTimeout) {
				// Not while a goroutine runs or waits outside control (a
				// test computing long, detached, while a janitor's
				// hourly timer fires): the clock jumps then without the
				// program being stuck.
				e.timedOut()
				return
			}
			if lead := e.childLead(); lead > 0 {
				e.cur = nil
				e.goIdle()
				e.decideAfter(lead)
				return
			}
			if e.clock.advance(e) {
				if e.rootDone {
					e.afterRoot++
					e.burstFrom = e.steps // a timer woke them: their work starts anew
				}
				continue
			}
			if e.detached > 0 {
				// Someone runs outside control; it decides when it comes back,
				// or the watchdog ends the run.
				e.cur = nil
				e.goIdle()
				return
			}
			if outsideCount {
				// A Wait for goroutines outside control: their last Done
				// decides (WGAdd), or a look a little later. Past
				// hangAfter without a step, the run is abandoned: a wait
				// in code Period does not control is no verdict.
				if e.countWaitFrom.IsZero() || e.countWaitStep != e.steps {
					e.countWaitFrom, e.countWaitStep = time.Now(), e.steps
				} else if time.Since(e.countWaitFrom) > e.cfg.hangAfter {
					e.outsideWait = fmt.Sprintf("a WaitGroup.Wait waited over %v for counts that goroutines outside control hold in the WaitGroup itself", e.cfg.hangAfter)
					e.stop()
					return
				}
				e.cur = nil
				e.goIdle()
				if !e.countLookArmed {
					// One look pending at a time, however many kicks
					// decide meanwhile.
					e.countLookArmed = true
					time.AfterFunc(outsideLookEvery, func() {
						e.mu.Lock()
						e.countLookArmed = false
						e.mu.Unlock()
						e.kickIdle()
					})
				}
				return
			}
			if e.unseenReady() || e.settleOutside() && e.unseenReady() {
				continue
			}
			if e.timerWaitStep != e.steps || e.timerWaitFrom.IsZero() {
				e.timerWaitStep, e.timerWaitFrom = e.steps, time.Now()
			}
			if wait := outsideTimerWait(); wait > 0 && !e.rootDone && time.Since(e.timerWaitFrom) < outsideTimerHorizon {
				// A real timer that code outside control armed is due
				// soon, and what it runs may wake a controlled goroutine
				// (outsidetimers.go). At most outsideTimerHorizon without
				// a step: a timer re-armed for ever (a keep-alive) does
				// not hold a deadlock back for ever.
				e.cur = nil
				e.goIdle()
				e.decideAfter(wait)
				return
			}
			e.allBlocked()
			return
		}
		if e.pollWait() {
			// Only polling for a while: everyone waits, time passes.
			e.effect()
			continue
		}
		e.steps++
		if e.anchorOutside {
			e.catchUp()
			e.anchorOutside = false
			if e.detached == 0 {
				e.realAnchor, e.waitedReal = time.Time{}, 0
			}
		}
		if !e.bubble {
			e.drift += stepDrift
			e.workDrift()
		}
		if e.rootDone && e.steps-e.burstFrom > max(afterRootSteps, e.rootSteps) && e.detached == 0 {
			e.leftRunning()
			return
		}
		if w := e.steps - e.lastEffect; e.cfg.AdaptiveSteps && w > e.cfg.MaxSteps/2 && e.pollYields*100 >= w {
			if e.rootDone {
				e.leftRunning()
				return
			}
			// Fair scheduling lets every goroutine run: a run that only
			// polls for this long waits for something that never comes.
			// Atomics and reads alone can be work (a lock-free structure);
			// polling that keeps yielding is waiting.
			e.report(bug{kind: "hang", message: fmt.Sprintf("no progress under fair scheduling: the last %d steps only polled and yielded (%d yields, selects, try-locks among them)", e.steps-e.lastEffect, e.pollYields), location: enabled[0].p.site})
			e.stop()
			return
		}
		if e.cfg.maxSteps > 0 && e.steps > e.cfg.maxSteps {
			if e.cfg.cutAtLimit {
				// Many steps are not a hang: a finite test can do a lot of work.
				e.cut = true
				e.stop()
				return
			}
			if e.rootDone {
				e.leftRunning()
				return
			}
			e.report(bug{kind: "hang", message: e.cfg.hangMessage(), location: enabled[0].p.site})
			e.stop()
			return
		}
		if len(enabled) > 1 {
			e.alts++
		}
		// Every enabled goroutine is passed over, but the one that runs
		// (readySet.ran); the most starved one runs if over the bound.
		evs := e.rs.evs
		starved := e.rs.starved(unfairBound + unfairPerG*len(enabled))
		if verifyReady {
			e.verifyPassed(enabled, starved)
		}
		e.rs.decisions++
		var i int
		switch {
		case e.free:
			i = e.frand.Intn(len(enabled))
		case e.replay != nil:
			i = e.replay.next(e, enabled)
			if i == replayWait {
				// A detached goroutine decides when it comes back.
				e.cur = nil
				e.goIdle()
				return
			}
			if i < 0 {
				return // diverged: the replayer stopped the run
			}
		default:
			i = e.strat.Next(evs)
			if i < 0 || i >= len(enabled) {
				panic(fmt.Sprintf("period: strategy %s picked %d of %d enabled goroutines", e.strat.Name(), i, len(enabled)))
			}
			e.free = e.releaser != nil && !e.freeOver && e.releaser.Release()
			if starved >= 0 && !e.free {
				// Bounded unfairness: Go's scheduler preempts every
				// goroutine within milliseconds, so no real execution
				// passes over a runnable goroutine forever. The strategy
				// still saw the step (its bookkeeping stays consistent);
				// the record shows what ran, so replays follow it.
				i = starved
				e.forced++
			}
		}
		next := enabled[i]
		e.rs.ran(next)
		next.vPassed = 0
		e.leftPoint(next)
		e.stepped(next)
		if !next.p.op.IsPoll() {
			e.effect()
			next.acted()
		} else if op := next.p.op; op == strategy.OpYield || op == strategy.OpSelect || op == strategy.OpTryLock {
			if e.workDone()-e.plainAtPoll >= pollWork {
				// Work between the polls: a loop that checks for
				// cancellation with a select's default while it computes
				// (syncthing's weak hash over a file, a byte an
				// iteration) is working, not waiting; the clock jumping
				// to the next timer after 256 such checks fired the
				// test's 10-second timeout at once. Nor does it park as a
				// spinner.
				e.effect()
				next.acted()
			} else {
				e.pollYields++
			}
			e.plainAtPoll = e.workDone()
		} else if op == strategy.OpAtomic && !e.bubble {
			e.loadDrift()
		}
		if next.p.op == strategy.OpYield {
			e.yielder = next
		} else if next != e.yielder {
			e.yielder = nil
		}
		e.log.add(evs[i])
		next.kps++
		next.lastEv = e.log.Len() - 1
		if e.traceTo != nil {
			fmt.Fprintf(e.traceTo, "step %s %s %s\n", next.path, next.p.op, next.p.site)
		}
		if e.progress.Add(1)&stampEvery == 1 {
			e.stepStamp.Store(time.Now().UnixNano())
		}
		e.cur = next
		next.status = gRunning
		if next != from {
			e.wakeUp(next)
		}
		return
	}
}

// effect records that the step under way changed state that others may wait
// for, though its operation is of a polling kind (an atomic write, a select
// case, a TryLock that took the lock): the run is not only polling. e.mu is
// held.
func (e *engine) effect() { e.lastEffect, e.pollYields, e.loads = e.steps, 0, 0 }

// workDone is the run's work without key points: plain accesses, on either
// path (the test goroutine alone counts its own in soloPlain: clockwork's
// fake clock, advanced by the test alone, expires a ticker a million times,
// each with a non-blocking send between writes of its own fields), and the
// iterations of bounded loops that poll. e.mu is held.
func (e *engine) workDone() int {
	return e.plainAccesses + int(e.soloPlain.Load()) + e.loopWork
}

// pollWork is how many memory accesses (of memory no other goroutine
// shares) between two polls make the second one work rather than waiting.
const pollWork = 4

// enabled lists the parked goroutines whose pending operation can complete,
// ordered by GID (ready.go). The slice is reused at the next key point.
func (e *engine) enabled() []*gstate {
	en := e.readyGs()
	if y := e.yielder; y != nil && (len(en) > 1 || e.free && e.anyRunning()) && e.replay == nil {
		// Fairness after runtime.Gosched: a goroutine that just yielded
		// waits until another one has taken a step (CHESS's fair scheduling
		// in its simplest form). Without it, a strategy that prefers one
		// goroutine could spin a correct CAS-and-yield loop forever.
		// A replay follows its record, which the filter can only narrow.
		// In free mode, goroutines still running count as others.
		if y.inEn {
			e.setEn(y, false)
			e.markDirty(y) // back in at the next pass (or collect's, if a candidate)
			e.rs.flush()
			en = e.rs.en
		}
	}
	return en
}

// verifyPassed checks the starved goroutine found from the stamps against a
// count kept at every decision for every enabled goroutine, as it once was.
func (e *engine) verifyPassed(enabled []*gstate, starved int) {
	want := -1
	for k, g := range enabled {
		if g.vPassed != e.rs.passedOf(g) {
			panic(fmt.Sprintf("period: g%s passed over %d times, stamps say %d", g.path, g.vPassed, e.rs.passedOf(g)))
		}
		if g.vPassed >= unfairBound+unfairPerG*len(enabled) && (want < 0 || g.vPassed > enabled[want].vPassed) {
			want = k
		}
		g.vPassed++
	}
	if want != starved {
		panic(fmt.Sprintf("period: most starved goroutine %d, stamps say %d", want, starved))
	}
}

func (e *engine) ready(g *gstate) bool {
	p := &g.p
	switch p.op {
	case strategy.OpSend, strategy.OpRecv:
		ok := e.chanReady(g, p.ch, p.op == strategy.OpSend)
		if !ok && !g.waited {
			g.waited = true
			e.waitFlips++
		}
		return ok
	case strategy.OpSelect:
		if p.hasDefault {
			return true
		}
		for _, c := range p.cases {
			if e.chanReady(g, c.ch, c.send) {
				return true
			}
		}
		if !g.waited {
			g.waited = true
			e.waitFlips++
		}
		return false
	case strategy.OpSleep:
		return e.clock.now >= p.wakeAt
	case strategy.OpYield:
		return !g.spinPark
	}
	switch p.wait {
	case waitLock:
		if p.mm.held || p.mm.announce != nil || p.mm.outsideWait != 0 {
			if p.op == strategy.OpLock {
				e.queueLock(g, p.mm)
			}
			return false
		}
		return p.op != strategy.OpLock || e.lockTurn(g, p.mm)
	case waitReaders:
		return p.mm.readers == 0
	case waitWG:
		return *p.cnt == 0
	}
	if p.ready != nil {
		return p.ready()
	}
	return true
}

// onlySchedule reports whether the run that just ended is the only schedule
// the test has: no step had an alternative (one goroutine enabled at every
// decision, no select, timer or random choice), and nothing ran outside
// control or in parallel (-parallel's free goroutines). Every other
// schedule would repeat it.
func (e *engine) onlySchedule() bool {
	return e.alts == 0 && e.releaser == nil && len(e.choices) == 0 && e.randSrc == nil && e.mathRandSrc == nil && e.outside == 0 && !e.everDetached &&
		e.outsideWait == "" && !e.cut
}

// choose asks the strategy (or the replay) to pick one of n alternatives at g's key point.
func (e *engine) choose(g *gstate, n int) int {
	var k int
	if e.replay != nil {
		k = e.replay.choose(e, n)
	} else {
		k = e.strat.Choose(strategy.Event{G: g.id, Op: g.p.op, Obj: g.p.obj, Site: g.p.site}, n)
	}
	if k < 0 || k >= n {
		k = 0
	}
	if e.replay == nil && g.p.op == strategy.OpSelect {
		k = g.fairCase(n, k)
	}
	e.choices = append(e.choices, choiceRec{at: e.log.Len(), n: n, k: k})
	return k
}

// fairCase bounds the unfairness of select choices as unfairBound bounds
// the scheduler's: Go's select takes a ready case uniformly at random, so a
// case ready at every pass of a loop is taken within a few passes, and a
// loop that serves a busy channel beside a quit case ends. A strategy that
// always takes the same case (DFS's first) would starve the other forever.
// After caseUnfair times in a row at the same select with as many ready
// cases, the next case is taken; the record keeps the case taken, so a
// replay follows it.
func (g *gstate) fairCase(n, k int) int {
	if g.caseSite != g.p.site || g.caseN != n || g.caseK != k {
		g.caseSite, g.caseN, g.caseK, g.caseRun = g.p.site, n, k, 0
	}
	g.caseRun++
	if g.caseRun > caseUnfair {
		k = (k + 1) % n
		g.caseK, g.caseRun = k, 1
	}
	return k
}

// caseUnfair: Go takes the same one of two ready cases 32 more times in a
// row once in about four billion.
const caseUnfair = 32

// unfairBound is how many decisions an enabled goroutine may be passed over
// before the engine runs it whatever the strategy picked (CHESS's fair
// scheduling, bounded as in Coyote: strategies are free below the bound). It
// is far above the depth of the bugs the strategies look for, and far below
// the step limit, so a correct spin or polling loop always lets the goroutine
// it waits for run.
//
// The bound grows with the number of enabled goroutines (unfairPerG each): a
// goroutine among a hundred runnable ones waits its turn a hundred times
// longer under Go's scheduler too, and bugs that need one of many goroutines
// delayed for long (PPCT's low-priority goroutines) stay within reach.
const (
	unfairBound = 200
	unfairPerG  = 20
)

// timerLeakAdvances is how many times virtual time may advance after the
// test returned before the goroutines still waiting for timers are reported
// as a leak (a ticker loop nobody stops would otherwise run to the step limit
// and be reported as a hang).
const timerLeakAdvances = 1000

// allBlocked handles the state where no controlled goroutine can move.
func (e *engine) allBlocked() {
	var stuck []*gstate
	for _, g := range e.gs {
		if g.status == gParked || g.status == gSubtest {
			stuck = append(stuck, g)
		}
	}
	switch {
	case !e.rootDone:
		ls := e.describe(stuck)
		if ls.cause != nil {
			ls.first = ls.cause // located where the waits close, not at a bystander
		}
		e.report(ls.bug("deadlock", "all goroutines are blocked:\n"))
	case len(stuck) > 0 && e.afterRoot >= timerLeakAdvances:
		// Woken by timers for ever: most often a goroutine left running by
		// design (a janitor, a ticker loop nobody stops). -leaks=blocked
		// keeps only those parked on something no timer wakes.
		if e.cfg.Leaks == "blocked" {
			var forever []*gstate
			for _, g := range stuck {
				if op := g.p.op; op != strategy.OpSleep && op != strategy.OpSelect && op != strategy.OpRecv {
					forever = append(forever, g)
				}
			}
			stuck = forever
		}
		if ls := e.describe(e.leaking(stuck)); len(ls.gs) > 0 {
			e.report(ls.bug("leak", fmt.Sprintf("%d goroutine(s) still running after the test returned, woken only by timers or tickers (virtual time went on for %v, %d firings, and they never finished):\n",
				len(ls.gs), time.Duration(e.clock.now-e.rootAt).Round(time.Millisecond), e.afterRoot)))
		}
	case len(stuck) > 0:
		if ls := e.describe(e.leaking(stuck)); len(ls.gs) > 0 {
			e.report(ls.bug("leak", fmt.Sprintf("%d goroutine(s) still blocked after the test returned:\n", len(ls.gs))))
		}
	}
	e.finish()
}

// virtualTimeout: a test whose goroutines (the test's, its subtests') have
// not taken a step for this much virtual time, while timers kept firing
// for others, is a hang.
// Natively it would take as long in real time, far past go test's default
// -timeout of ten minutes: a test whose goroutine waits for a helper that
// called t.Fatal, beside a library's one-second ticker (go-kit's NATS
// tests), ticked for as long as Period let it.
const virtualTimeout = time.Hour

// timedOut reports the run as a hang at virtualTimeout and ends it.
func (e *engine) timedOut() {
	var stuck []*gstate
	for _, g := range e.gs {
		if g.status == gParked || g.status == gSubtest {
			stuck = append(stuck, g)
		}
	}
	ls := e.describe(stuck)
	if len(e.gs) > 0 && (e.gs[0].status == gParked || e.gs[0].status == gSubtest) {
		ls.first = e.gs[0] // where the test waits, as go test's timeout shows it
	}
	e.report(ls.bug("hang", fmt.Sprintf("the test did not return: it waited for %v of virtual time while only timers and tickers woke goroutines (go test would stop it at its -timeout):\n", time.Duration(virtualTimeout))))
	e.finish()
}

// afterRootSteps bounds the steps goroutines may still take after the test
// returned, or since a timer last woke them, or as many as the test took if
// that is more (a cache's expiration pass over everything the test added
// ends natively within milliseconds of the test, muesli/cache2go's
// TestCount). go test does not wait for them at all; goleak would report
// them. Past the bound they are a leak (a worker spinning on a flag nobody
// sets, a loop nobody stops), never a hang: the test itself finished.
const afterRootSteps = 200_000

// leftRunning reports the goroutines still alive long after the test
// returned as a leak and ends the run.
func (e *engine) leftRunning() {
	var alive []*gstate
	for _, g := range e.gs {
		if g.status == gParked || g.status == gSubtest || g.status == gRunning {
			alive = append(alive, g)
		}
	}
	if e.cfg.Leaks != "blocked" {
		if ls := e.describe(e.leaking(alive)); len(ls.gs) > 0 {
			e.report(ls.bug("leak", fmt.Sprintf("%d goroutine(s) still running after the test returned: they took %d steps since without finishing (a loop or a spin nobody stops); each is shown at its next key point:\n",
				len(ls.gs), e.steps-e.rootSteps)))
		}
	}
	e.stop()
}

// afterRootRealWait is how long, after the test returned, goroutines
// blocked for real (a server's Accept nobody closes) are waited for before
// they are reported as a leak, as goleak retries for about a second.
const afterRootRealWait = time.Second

// detachedAllWaiting tells whether every detached goroutine waits for real
// for someone else (I/O, a channel or lock of code Period does not
// control), not computing or sleeping. e.mu is held.
func (e *engine) detachedAllWaiting() bool {
	for _, g := range e.gs {
		if g.status == gDetached && !waitsForOthers(g.goid) {
			return false
		}
	}
	return true
}

// leftWaitingOutside ends a run whose test returned while goroutines still
// wait for real in code Period does not control: they and the controlled
// goroutines still blocked are a leak (go test would leave them behind;
// goleak reports them), not a schedule to abandon. e.mu is held.
func (e *engine) leftWaitingOutside() {
	var left []*gstate
	n := 0
	for _, g := range e.gs {
		switch g.status {
		case gDetached:
			n++
			left = append(left, g)
		case gParked, gSubtest:
			left = append(left, g)
		}
	}
	if ls := e.describe(e.leaking(left)); len(ls.gs) > 0 {
		e.report(ls.bug("leak", fmt.Sprintf("%d goroutine(s) still blocked after the test returned, %d of them for over %v in code Period does not control (I/O, a system call, a lock or channel of the standard library):\n",
			len(ls.gs), n, afterRootRealWait)))
	}
	e.stop()
}

// leaking drops from stuck what -leaks and -ignore-leak say not to report.
func (e *engine) leaking(stuck []*gstate) []*gstate {
	if e.cfg.Leaks == "off" {
		return nil
	}
	stuck = slices.DeleteFunc(stuck, func(g *gstate) bool { return g.helper || g.daemon && e.cfg.Leaks != "any" })
	if e.cfg.Leaks != "any" && e.detached == 0 && e.outside == 0 {
		// Not while goroutines outside control may run the program's
		// code: the walk reads maps they could be writing (a fatal error).
		stuck = reachableFromPackages(stuck)
	}
	if len(e.cfg.IgnoreLeak) == 0 {
		return stuck
	}
	funcs := goroutineFuncs(stuck)
	var out []*gstate
	for _, g := range stuck {
		if !ignoredLeak(e.cfg.IgnoreLeak, funcsOf(funcs[g.goid]), funcName(g.creator)) {
			out = append(out, g)
		}
	}
	return out
}

// ignoredLeak matches a leaked goroutine against -ignore-leak names, as
// goleak's IgnoreAnyFunction does: any function on its stack, or the
// function whose go statement created it.
func ignoredLeak(ignore, stack []string, creator string) bool {
	for _, name := range ignore {
		if name == creator || slices.Contains(stack, name) {
			return true
		}
	}
	return false
}

// stuckReport describes goroutines that cannot move.
type stuckReport struct {
	gs    []*gstate
	lines string
	first *gstate // the goroutine the report is located at
	fn    string  // first's function
	cause *gstate // a goroutine of the cycle (or chain) of waits, if any (stuck.go)
}

func (ls stuckReport) bug(kind, head string) bug {
	b := bug{kind: kind, message: head + ls.lines}
	if g := ls.first; g != nil {
		b.location = g.p.site
		b.created, b.createdBy = g.created, funcName(g.creator)
	}
	return b
}

// describe says, per goroutine, what it is blocked on and where, in which
// function, and which go statement created it.
func (e *engine) describe(stuck []*gstate) stuckReport {
	ls := stuckReport{gs: stuck}
	funcs := goroutineFuncs(stuck)
	var b strings.Builder
	cycle, edges := e.waitCycle(stuck)
	waits, ordered := describeWaits(cycle, edges, stuck)
	b.WriteString(waits)
	if len(edges) > 0 {
		ls.cause = edges[0].from
	}
	held := e.heldLocks()
	for _, g := range ordered {
		what := g.p.op.String()
		if g.status == gSubtest {
			what = "t.Run (waiting for its subtest)"
		}
		if g.status == gDetached {
			// Waiting in code Period does not control: where, from its stack.
			st, status := stackAndStatus(g.goid)
			where := stuckFrame(st)
			if where == "" {
				where = g.lastSite
			}
			fmt.Fprintf(&b, "  goroutine g%s blocked for real (%s) at %s, inside code Period does not control", g.path, status, where)
		} else {
			fmt.Fprintf(&b, "  goroutine g%s blocked on %s at %s", g.path, what, g.p.site)
		}
		fn := entryFunc(funcs[g.goid], g.created)
		if fn != "" {
			fmt.Fprintf(&b, " in %s", fn)
		}
		if g.created != "" {
			fmt.Fprintf(&b, ", created at %s", g.created)
			if c := funcName(g.creator); c != "" {
				fmt.Fprintf(&b, " by %s", c)
			}
		}
		if h := held[g]; len(h) > 0 {
			fmt.Fprintf(&b, "; holds %s", strings.Join(h, ", "))
		}
		b.WriteString("\n")
	}
	for _, g := range stuck {
		if g.path != "0" {
			ls.first, ls.fn = g, entryFunc(funcs[g.goid], g.created)
			break
		}
	}
	if ls.first == nil && len(stuck) > 0 {
		ls.first = stuck[0]
	}
	ls.lines = b.String()
	return ls
}

func (e *engine) report(b bug) {
	if e.outsideWait != "" || e.cut {
		return // the run ended without a verdict: what unwinding shows is not one
	}
	if b.kind == "race" && e.rootDone && e.afterRoot > 0 {
		// The test returned and the clock jumped to wake what it left
		// behind: a future that exists only to tell a leak, which go test
		// never waits for (a cache's janitor ticking a minute later).
		// The goroutines are reported as the leak they are.
		return
	}
	b.clockRead = e.clockRead
	e.bugs = append(e.bugs, b)
	if e.cfg.onBug != nil {
		e.cfg.onBug(e, b)
	}
	if e.replay != nil && e.replayBug != nil {
		e.replayBug(b)
	}
}

// stop ends the run after a bug: every goroutine unwinds.
func (e *engine) stop() {
	e.stopping = true
	e.finish()
}

// finish marks the run over and releases everyone waiting on it.
func (e *engine) finish() {
	if e.finished {
		return
	}
	e.finished = true
	e.soloGoid.Store(0) // its next access goes through enter, which unwinds it
	e.cur = nil
	var outside *gstate // a goroutine blocked in code Period does not control: no unwinding reaches it
	for _, g := range e.gs {
		if g.status != gDone && g.status != gSubtest {
			g.abort = true
			e.wakeUp(g)
			if g.status == gDetached && (outside == nil || g == e.gs[0]) {
				outside = g
			}
		}
	}
	e.cond.Broadcast()
	close(e.runDone)
	if outside != nil {
		// The run is over (a bug, the step limit), but a goroutine waits
		// for real for what may never come (the test's own read from a
		// socket whose writer was unwound): if the run is still not done
		// after the grace, the process ends. The bugs are on disk already;
		// the runner keeps them and explores no further in this process.
		what := "the run ended"
		if len(e.bugs) > 0 {
			what += " with a " + e.bugs[0].kind
		}
		e.exitIfStuck(outside, fmt.Sprintf("%s, but goroutine g%s stays blocked in code Period does not control%s", what, outside.path, afterSite(outside)), outside.lastSite, false)
	}
}

// inherit starts child's vector clock after everything its parent did so far.
func (e *engine) inherit(parent, child *gstate) {
	if !e.race.on {
		return
	}
	var from *vc
	if parent != nil {
		from = &parent.vc
	}
	child.slot, child.floor = e.race.takeSlot(from)
	if parent != nil {
		child.vc = parent.vc.clone()
		parent.vc.tick(parent.slot)
	}
	child.vc.tick(child.slot)
}

// spawn creates a controlled goroutine running f; it starts parked at its start key point.
func (e *engine) spawn(parent *gstate, site string, f func(), creator uintptr) *gstate {
	g := e.newG(parent)
	g.created, g.creator = site, creator
	g.daemon = parent != nil && parent.onceDepth > 0
	g.status = gParked
	g.p = pending{op: strategy.OpStart, site: site}
	if parent != nil {
		g.born = parent.kps
	}
	e.inherit(parent, g)
	e.seq++
	g.seq = e.seq
	e.parked(g)
	e.exited.Add(1)
	periodLive.Add(1)
	e.unregistered++
	go e.goroutineMain(g, f, e.exited)
	return g
}

// primeStack grows a new goroutine's stack (2 KB) once, while it is
// nearly empty, to what the engine's decisions need: grown in the middle
// of the goroutine's first decision, it was copied with the frames above
// it (7 % of a schedule of a thousand goroutines that lock a mutex,
// docs/scale.md).
//
//go:noinline
func primeStack() byte {
	var frame [1536]byte
	return frame[stackIndex] // a variable index: the frame is kept
}

var stackIndex = 0

func (e *engine) goroutineMain(g *gstate, f func(), exited *sync.WaitGroup) {
	defer periodLive.Add(-1)
	defer exited.Done()
	e.mu.Lock()
	g.goid = goid()
	e.byGoid.put(g.goid, g)
	e.unregistered--
	if e.finished || g.abort {
		g.status = gDone
		e.mu.Unlock()
		return
	}
	g.entry = f // listed as its first frame until it starts (Stack)
	_ = primeStack()
	e.park(g) // until chosen for the start key point
	g.entry = nil
	e.hookDone(g)
	normal := false
	defer func() {
		r := recover()
		e.exit(g, r, normal)
	}()
	f()
	normal = true
}

// exit records the end of g. r is a recovered panic value, if any.
func (e *engine) exit(g *gstate, r any, normal bool) {
	var stack []byte
	var value string
	if r != nil {
		stack = panicStack()
		value = e.panicValue(g, r)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	wasCur := e.cur == g
	e.byGoid.del(g.goid)
	if g.status == gDetached {
		e.undetach()
	}
	g.status = gDone
	// Nothing joins a goroutine's end: its clock goes, or a run that starts
	// goroutine after goroutine keeps clocks quadratic in their number, and
	// its slot goes to a later goroutine.
	if e.race.on {
		if e.bubble {
			// Except synctest.Wait's: a goroutine of the bubble that
			// ended happens before the next Wait returns (SynctestWait).
			e.race.bubbleEnded.join(g.vc)
		}
		e.race.freeSlot(g)
	}
	g.vc = vc{}
	e.settle(g)
	if e.finished {
		return
	}
	if r != nil {
		if e.outlived(g, "panicked", fmt.Sprintf(": %v\n%s", value, cleanStack(stack)), panicLocation(stack)) {
			return
		}
		e.reportEnd(g, bug{kind: "panic", message: fmt.Sprintf("panic in goroutine g%s%s: %s\n%s", g.path, e.afterTest(), value, cleanStack(stack)), location: panicLocation(stack)})
		e.stop()
		return
	}
	if wasCur || e.cur == nil {
		e.cur = nil
		e.decide(nil)
	}
}

// outlived reports g's end (verb: "panicked", "called os.Exit(1)") as
// a leak when g was left running by the test and ended so only well after
// the test returned in virtual time (a poller's next tick, 42 s later:
// jaeger-client-go's remote sampler; a forced exit 21 s after a shutdown
// began: benthos's CLI): go test shows that end only in a test binary that
// lives that long. e.mu is held; on true the run is stopped.
func (e *engine) outlived(g *gstate, verb, detail, location string) bool {
	late := time.Duration(e.clock.now - e.rootAt)
	if !e.rootDone || late <= afterRootRealWait {
		return false
	}
	from := ""
	if g.created != "" {
		from = " (created at " + g.created
		if c := funcName(g.creator); c != "" {
			from += " by " + c
		}
		from += ")"
	}
	e.reportEnd(g, bug{kind: "leak", message: fmt.Sprintf("goroutine g%s%s outlived the test and %s %v of virtual time%s%s", g.path, from, verb, late.Round(time.Millisecond), e.afterTest(), detail),
		location: location, created: g.created, createdBy: funcName(g.creator)})
	e.stop()
	return true
}

// run executes f once under control as goroutine "0" (the calling goroutine,
// which is the test's goroutine). failed reports whether the test has failed.
func (e *engine) run(t *testing.T, f func()) {
	var failed func() bool
	if t != nil {
		failed = t.Failed
	}
	e.mu.Lock()
	root := e.newG(nil)
	if e.race.on {
		root.slot, root.floor = e.race.takeSlot(nil)
	}
	root.t = t
	root.goid = goid()
	if e.firstRunGoid.Load() == 0 {
		e.firstRunGoid.Store(root.goid)
	}
	e.byGoid.put(root.goid, root)
	e.cur = root
	root.status = gRunning
	root.p = pending{op: strategy.OpStart, site: "test"}
	e.failed = failed
	e.active.Store(true)
	stopWatch := e.watchdog()
	// Deferred: the root may unwind with runtime.Goexit (t.FailNow, or the run ended).
	defer func() {
		<-e.runDone
		stopWatch()
		e.mu.Lock()
		if len(e.bugs) == 0 && failed != nil && failed() && e.outsideWait == "" && !e.cut {
			e.report(bug{kind: "fail", message: "the test failed", failFirst: e.failFirst})
		}
		e.mu.Unlock()
		e.teardown()
	}()
	e.point(root)
	e.mu.Unlock()

	normal := false
	defer func() {
		r := recover()
		if !normal {
			if r == nil {
				e.runCleanups(root) // t.FailNow, t.Skip
			}
			e.rootExit(root, r)
		}
	}()
	f()
	e.endParallel(root)
	e.runCleanups(root)
	normal = true
	e.rootExit(root, nil)
}

// panicValue formats r as %v does, before e.mu is taken: its Error or
// Format method may be instrumented code whose hooks take e.mu (an error of
// github.com/pkg/errors panicked from a deferred Close: the test process
// waited for itself for ever). g's hooks perform plain operations meanwhile.
func (e *engine) panicValue(g *gstate, r any) string {
	e.mu.Lock()
	status := g.status
	g.status = gDone
	e.mu.Unlock()
	v := fmt.Sprint(r)
	e.mu.Lock()
	if g.status == gDone {
		g.status = status
	}
	e.mu.Unlock()
	return v
}

// rootExit is the end of the test function: the other goroutines go on until
// they finish or block (then they leak).
func (e *engine) rootExit(root *gstate, r any) {
	var stack []byte
	var value string
	if r != nil {
		stack = panicStack()
		value = e.panicValue(root, r)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.rootDone = true
	e.rootAt = e.clock.now
	e.rootSteps, e.burstFrom = e.steps, e.steps
	e.byGoid.del(root.goid)
	if root.status == gDetached {
		e.undetach() // it came back from uncontrolled code only to return
	}
	root.status = gDone
	e.settle(root) // a rendezvous partner may return before its next key point
	if e.finished {
		return
	}
	if r != nil {
		e.reportEnd(root, bug{kind: "panic", message: fmt.Sprintf("panic in the test goroutine: %s\n%s", value, cleanStack(stack)), location: panicLocation(stack)})
		e.stop()
		return
	}
	if e.failed != nil && e.failed() {
		e.reportEnd(root, bug{kind: "fail", message: "the test failed", failFirst: e.failFirst})
		e.stop()
		return
	}
	if e.cur == root || e.cur == nil {
		e.cur = nil
		e.decide(nil)
	}
}

// teardown waits for the run's goroutines to unwind; a goroutine stuck in
// uncontrolled code is abandoned (it can no longer reach the engine).
func (e *engine) teardown() {
	done := make(chan struct{})
	exited := e.exited
	go func() { exited.Wait(); close(done) }()
	// Stopped at the end: a pending timer per run (20 s by default) kept
	// hundreds of thousands of them in the runtime's timer heap at tens of
	// thousands of runs a second.
	limit := time.NewTimer(e.cfg.watchdog * 4)
	defer limit.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case <-done:
			break wait
		case <-limit.C:
			break wait
		case <-tick.C:
			if e.onlyBlockedOutsideLeft() {
				break wait // they wait for real for what will not come
			}
		}
	}
	e.active.Store(false)
}

// onlyBlockedOutsideLeft tells whether every goroutine of the ended run
// that has not exited is detached and waits for real for others (a server's
// Accept nobody closes).
func (e *engine) onlyBlockedOutsideLeft() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, g := range e.gs {
		if g.status != gDone && g.status != gDetached {
			return false
		}
	}
	return e.detachedAllWaiting()
}

// The clock waits, in real time, for detached goroutines (blocked in code
// Period does not control, such as network I/O) before it jumps to the next
// timer while every controlled goroutine waits: as long as the jump, at
// least outsideGraceTime and at most outsideGraceMax. Virtual time then
// never runs ahead of real time against real I/O by more than the cap: a
// ten-second write timeout does not fire while a write over TCP is still
// being drained (yamux's TestManyStreams_PingPong failed with "connection
// write timeout" when the wait was a fixed 20 ms), and the cap stays well
// below the watchdog's hang limit.
const (
	outsideGraceTime = 20 * time.Millisecond
	outsideGraceMax  = time.Second
)

// outsideGrace reports whether the clock should still wait for detached
// goroutines at this step. e.mu is held. The wait ends on time (a timer,
// not the watchdog's coarser tick): code that races the network against a
// timer (a hedged request) sees the timer fire about when it would.
func (e *engine) outsideGrace(fresh bool) bool {
	if e.bubble && !e.selfSignaled() && e.bubbleDurablyBlocked() {
		// In a synctest bubble a goroutine blocked on a channel or lock
		// of code Period does not see (a net.Pipe's), or one outside
		// control (a net/http server's connection goroutine running the
		// handler) blocked on the bubble's channels, is durably blocked,
		// as synctest defines it: only the bubble can wake it, and the
		// bubble's clock moves at once, as it does under go test
		// (arl/statsviz's TestWsConcurrent, 200 ticks of a second over a
		// fake network, waited a real second for each).
		return false
	}
	if e.outsideSleeping.Load() > 0 && e.detached > 0 && e.graceStep == e.steps && time.Since(e.graceFrom) >= e.graceFor {
		// A goroutine outside control sleeps for real while a controlled
		// one waits for real (most often for it): the sleeper comes back
		// when its sleep ends, so time goes on with real time and does
		// not jump past it (a handler sleeping 2 s before it answers a
		// client that allows 5 s: lestrrat-go/httprc). A loop outside
		// control that sleeps while the test waits on the virtual clock
		// alone does not hold the clock back.
		e.graceFrom = time.Time{}
	}
	if e.graceFrom.IsZero() || e.graceStep != e.steps {
		e.graceFrom, e.graceStep = time.Now(), e.steps
		e.graceFor = outsideGraceTime
		if fresh {
			// Only new goroutines outside control: a moment for their
			// first step, as a machine gives them (freshOutside).
			e.graceFor, e.graceFresh = freshOutsideGrace, true
			e.afterGrace()
			return true
		}
		if e.realAnchor.IsZero() && e.programOutside() && !e.bubble {
			// Waiting for goroutines outside control: time runs with
			// real time until a controlled goroutine steps (decide).
			e.realAnchor, e.vAnchor, e.anchorOutside = e.graceFrom, e.vnow(), true
			e.waitedReal = 0
		}
		if next := e.clock.nextDue(e, false); next >= 0 && next != never {
			if !e.realAnchor.IsZero() {
				// Virtual time runs with real time while a goroutine
				// waits for real: the jump waits until real time has
				// reached the timer, no longer (a hedge 10 ms after a
				// request fires about 10 ms after it, as on a machine).
				e.catchUp()
				gap := time.Duration(next - e.vnow())
				if gap <= 0 {
					return false
				}
				e.graceFor = min(gap, e.graceCap())
			} else {
				e.graceFor = min(max(time.Duration(next-e.vnow()), outsideGraceTime), e.graceCap())
			}
		}
		e.graceV, e.graceFresh = e.vnow(), false
		e.afterGrace()
	} else if next := e.clock.nextDue(e, false); !e.graceFresh && next >= 0 && next != never && next > e.graceV {
		// The clock moved on at this step: timers that nobody waits on
		// any more fired (the time.After of earlier selects) and woke
		// nobody, and the goroutines waited for are still out. The wait
		// goes on to the next timer as if virtual time ran with real
		// time since it began, never past graceCap in all: jumping
		// through every such timer at once carried ginkgo's output
		// interceptor past its one-second bailout while the pipe's reader
		// was a few microseconds from its end of file.
		want := min(time.Duration(next-e.graceV), e.graceCap())
		if e.realAnchor.IsZero() {
			want = max(want, outsideGraceTime)
		}
		if want != e.graceFor {
			// Or a timer nearer than the one the wait was set for was
			// armed meanwhile, with no step: a goroutine back from
			// outside control sleeps a millisecond before its next
			// request. The wait ends at it, as a real clock would
			// fire it, not at the test's one-second timeout.
			e.graceFor = want
			e.afterGrace()
		}
	}
	return time.Since(e.graceFrom) < e.graceFor
}

// outsideSilentJumps: the clock jumps, each after a wait for goroutines
// outside control or detached, that outsideSilent needs besides the time.
const outsideSilentJumps = 30

// outsideSilent reports whether the clock has waited, at
// outsideSilentJumps jumps or more and for longer than a busy detached
// goroutine is given (busyHangFactor times the hang limit) of real time,
// for goroutines outside control or detached that gave no sign of life
// meanwhile: no hook, no hand-off, none back. Each jump waits in real time
// (outsideGrace), so a test whose goroutines wait while a ticker ticks
// beside a goroutine blocked for good in code Period does not control
// would tick in real time until -timeout. e.mu is held.
func (e *engine) outsideSilent() bool {
	sig := e.detachedHooks + int64(e.outside) + int64(e.handedOut) + e.undetaches
	if sig != e.silentSig || e.silentFrom.IsZero() {
		e.silentSig, e.silentFrom, e.silentJumps = sig, time.Now(), 0
		return false
	}
	if e.graceStep != e.steps {
		e.silentJumps++
	}
	return e.silentJumps >= outsideSilentJumps && time.Since(e.silentFrom) > busyHangFactor*e.cfg.hangAfter
}

// abandonSilent abandons the run after outsideSilent: Period cannot tell
// whether what it waits for would ever come back, so this is a note, not a
// verdict. e.mu is held.
func (e *engine) abandonSilent() {
	var g *gstate
	for _, x := range e.gs {
		if x.status == gDetached {
			g = x
			break
		}
	}
	what := "goroutines outside control"
	if g != nil {
		what = fmt.Sprintf("goroutine g%s, blocked in code Period does not control%s,", g.path, afterSite(g))
	}
	e.outsideWait = fmt.Sprintf("the clock waited in real time for %v at %d jumps for %s with no sign of life, while only timers moved the others", time.Since(e.silentFrom).Round(time.Second), e.silentJumps, what)
	if g != nil {
		e.exitIfStuck(g, e.outsideWait, g.lastSite, false)
	}
	e.stop()
}

// graceCap bounds the clock's wait for detached goroutines: outsideGraceMax,
// or most of the hang limit while a test's own goroutine (the test or a
// subtest, or its cleanup) waits for real. That wait is the test's: an
// http.Server's Shutdown polls for idle connections for over a second
// (HTTP/2's GOAWAY grace), and a clock that jumped after one second fired
// the 5-second deadline the test gave it (connectrpc's memhttp cleanup,
// "shutdown failed: context deadline exceeded"). e.mu is held.
//
// A goroutine waiting for a child process (a test that builds a binary
// with go build, or runs one, while a timer of its own runs: ginkgo's
// suite timeout beside gexec.Build) is waited for without a cap: the
// child ends by itself, and the clock keeps to real time meanwhile, as
// under go test. One that never ends leaves the run abandoned
// (outsideSilent), not reported.
func (e *engine) graceCap() time.Duration {
	capped := outsideGraceMax
	for _, g := range e.gs {
		if g.status != gDetached {
			continue
		}
		if g.childWait {
			return time.Duration(never)
		}
		if g.t != nil {
			capped = max(outsideGraceMax, e.cfg.hangAfter*4/5)
		}
	}
	return capped
}

// afterGrace decides again when the grace that began at this step ends
// (graceFrom+graceFor), if nothing happened meanwhile. e.mu is held.
func (e *engine) afterGrace() { e.decideAfter(time.Until(e.graceFrom.Add(e.graceFor))) }

// A child process reads the real clock. A test that sleeps so that its
// children see time pass (goose names migrations by the second, and its
// test sleeps a second between two goose create commands) found the
// clock a second on and the child's clock where it was: duplicate
// versions. Once a run has used a child process, the clock does not jump
// ahead of real time: virtual time since then waits for real time to
// catch up before a timer fires, as go test's timers fire.

// childRan: a call on a command or process that took longer ran a child
// (a fork and exec take over a millisecond).
const childRan = 200 * time.Microsecond

// childUsed records that the run used a child process. e.mu is held.
func (e *engine) childUsed() {
	if e.childFrom.IsZero() && !e.bubble {
		e.childFrom, e.childV = time.Now(), e.vnow()
	}
}

// childLead is how long real time must still pass before the clock may
// jump to its next wake-up, in a run that used a child process. e.mu is
// held.
func (e *engine) childLead() time.Duration {
	if e.childFrom.IsZero() || e.bubble || e.rootDone {
		return 0 // after the test returned, go test waits for no timer
	}
	next := e.clock.nextDue(e, false)
	if next < 0 || next == never {
		return 0
	}
	// Real time since the first child, on the clock; where the clock is
	// ahead already (steps, polling, a wait for goroutines outside
	// control), it waits the jump's own length only, not what it is ahead.
	return time.Duration(next - max(e.vnow(), e.childV+int64(time.Since(e.childFrom))))
}

// decideAfter decides again after d if nothing happened meanwhile (the
// step count and the run unchanged, nobody running). e.mu is held.
func (e *engine) decideAfter(d time.Duration) {
	idx, step := e.runIdx, e.steps
	time.AfterFunc(d, func() {
		periodOwn.Add(1)
		defer periodOwn.Add(-1)
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.active.Load() && !e.finished && e.runIdx == idx && e.steps == step && e.cur == nil && e.transit == 0 {
			e.decide(nil)
		}
	})
}

// Goroutines Period runs, for freshOutside: periodLive those it starts
// for the program (controlled goroutines, subtests), periodOwn its own
// timer callbacks while they run.
var periodLive, periodOwn atomic.Int64

// freshOutsideGrace is how long the clock waits, before it jumps, for
// goroutines outside control that appeared since the last such wait.
const freshOutsideGrace = 2 * time.Millisecond

// freshOutside tells whether goroutines Period does not know of appeared
// in this run since the last time it said so: a goroutine the standard
// library starts to run the program's code (http.Server's
// RegisterOnShutdown functions, each in a go statement of net/http) has
// not reached a key point yet, and a clock that jumps to the test's
// 5-second timeout first reports a failure no machine shows (connectrpc's
// memhttp TestRegisterOnShutdown). Only a jump of a millisecond or more
// waits: shorter ones are a machine's scheduling delay. e.mu is held.
func (e *engine) freshOutside() bool {
	if next := e.clock.nextDue(e, false); next < 0 || next == never || time.Duration(next-e.vnow()) < time.Millisecond {
		return false
	}
	// Goroutines that just ended may still be counted: let them go.
	runtime.Gosched()
	runtime.Gosched()
	extra := runtime.NumGoroutine() - int(periodLive.Load()+periodOwn.Load()) - e.baseG
	if extra > e.outsideSeen {
		e.outsideSeen = extra
		return true
	}
	e.outsideSeen = max(extra, 0)
	return false
}

// quickPerCheck: the watchdog probes for a current goroutine blocked for
// real this many times between two full checks (every 1 ms, for checks
// every 20 ms).
const quickPerCheck = 20

// probeMin is the shortest stall of the current goroutine that the
// watchdog's probe looks at. A reader blocked on a socket behind a
// bufio.Reader (grpc's and HTTP/2's framers: no rt.IO hook at the call)
// is found only so: at 5 to 10 ms a look, grpc's flow-control tests spent
// 9.9 s of 12 s in 901 such waits. A look dumps every goroutine's stack,
// so the probe also waits probeCostFactor times what the last dump took.
const (
	probeMin        = time.Millisecond
	probeCostFactor = 4
)

// kickIdle is called by a goroutine outside control after it operated on a
// channel (a worker sending a result) without e.mu: if the run is idle,
// waiting for such goroutines before the clock may move, the engine
// decides at once, as a real scheduler runs a goroutine a send made ready,
// instead of at the end of the wait (a second, for a hedged request's
// timer).
func (e *engine) kickIdle() {
	if !e.active.Load() {
		return
	}
	e.mu.Lock()
	e.kickIdleLocked()
	e.mu.Unlock()
}

// kickIdleLocked is kickIdle with e.mu held.
func (e *engine) kickIdleLocked() {
	if e.idle && e.active.Load() && !e.finished && e.cur == nil && e.transit == 0 {
		e.decide(nil)
	}
}

// stampEvery+1 steps take one reading of the real clock (time.Now costs
// 20 to 100 ns, a step about 500): the anchor of a real wait is then at
// most that many steps early.
const stampEvery = 31

// catchUp moves virtual time to at least the real time that has passed
// since a goroutine began to wait for real (an HTTP request, a child
// process, a pipe): on a machine, a test that measures a 100 ms request sees
// 100 ms, and a ticker beside it ticks through them. Only waits for real
// count (a goroutine detached for computing long keeps virtual time, so
// instrumented code's slowness is not mistaken for time). e.mu is held.
func (e *engine) catchUp() {
	if e.realAnchor.IsZero() || e.bubble {
		return
	}
	waited := e.waitedReal
	if e.idle {
		waited += time.Since(e.idleFrom)
	}
	if e.programOutside() {
		// The program's own code runs outside control in this run (a
		// net/http server's handlers): its real time is the program's
		// time, whatever the controlled goroutines do meanwhile (a
		// handler's 100 ms sleep takes 100 ms beside hedged requests).
		waited = time.Since(e.realAnchor)
	}
	if d := e.vAnchor + int64(waited) - e.vnow(); d > 0 {
		e.drift += d
	}
}

// programOutside reports whether the program's own code runs outside
// control beside the run: in it (a handler, a value handed to one), or in
// goroutines that predate the runs and pace the clock (bgtickers.go).
func (e *engine) programOutside() bool {
	return e.outside > 0 || e.handedOut > 0 || e.bgPaced()
}

// waitsForOutsideCount reports whether a controlled goroutine blocked in
// WaitGroup.Wait waits for counts that goroutines outside control hold
// in the WaitGroup itself (realWGCount). e.mu is held.
func (e *engine) waitsForOutsideCount() bool {
	if e.wgWaits == 0 {
		return false
	}
	for _, g := range e.gs {
		if g.status == gParked && g.p.wg != nil && realWGCount(g.p.wg) > 0 {
			return true
		}
	}
	return false
}

// countDetached is the number of goroutines in state gDetached. e.mu is held.
func (e *engine) countDetached() int {
	n := 0
	for _, g := range e.gs {
		if g.status == gDetached {
			n++
		}
	}
	return n
}

// detachedIDs lists the runtime IDs of the detached goroutines. e.mu is held.
func (e *engine) detachedIDs() []int64 {
	var ids []int64
	for _, g := range e.gs {
		if g.status == gDetached {
			ids = append(ids, g.goid)
		}
	}
	return ids
}

// detachedDurablyBlocked reports whether every detached goroutine is
// blocked on a channel, a select or a sync lock in the Go runtime (not on
// I/O, a system call or a sleep, not running). e.mu is held.
func (e *engine) detachedDurablyBlocked() bool {
	ids := e.detachedIDs()
	if len(ids) == 0 {
		return false
	}
	statuses := goroutineStatuses()
	for _, id := range ids {
		if !durableStatus(statuses[id]) {
			return false
		}
	}
	return true
}

// bubbleDurablyBlocked reports whether every detached goroutine, and every
// goroutine outside control that called hooks in this run and is still
// alive, is durably blocked (detachedDurablyBlocked); false if there are
// none to look at, or a value went to such goroutines without any being
// recorded. e.mu is held.
func (e *engine) bubbleDurablyBlocked() bool {
	ids := e.detachedIDs()
	if e.outsideGs.many {
		return false
	}
	nDetached := len(ids)
	for id := range e.outsideGs.ids {
		ids = append(ids, id)
	}
	if len(ids) == 0 || (e.outside > 0 || e.handedOut > 0) && len(ids) == nDetached {
		return false
	}
	durable := map[int64]bool{}
	eachGoroutine(func(id int64, status, stack []byte) {
		durable[id] = durablyBlockedOutside(status, stack)
	})
	for i, id := range ids {
		d, alive := durable[id]
		if !alive && i >= nDetached {
			continue // an outside goroutine that exited
		}
		if !d {
			return false
		}
	}
	return true
}

// durablyBlockedOutside tells whether a goroutine Period does not control
// at the moment, with this status and stack, is durably blocked, as
// synctest defines it; one waiting for e.mu (held by the caller) is on its
// way into a hook, not blocked.
func durablyBlockedOutside(status, stack []byte) bool {
	return durableStatus(string(status)) && !bytes.Contains(stack, enterFrame) && !(lockWait(status) && bytes.Contains(stack, rtFrame))
}

// undetach counts a detached goroutine back (it reached a hook or ended),
// its real wait reflected in virtual time. e.mu is held.
func (e *engine) undetach() {
	e.undetaches++
	e.catchUp()
	e.stepStamp.Store(time.Now().UnixNano())
	e.detached--
	if e.detached == 0 {
		e.realAnchor, e.waitedReal = time.Time{}, 0
		e.workDetach = false
	}
}

// busyHangFactor: a detached goroutine that keeps calling hooks (it runs
// instrumented code, only without key points: a long computation on
// unshared data) is a hang only after busyHangFactor times hangAfter of
// wall time, not hangAfter: on a loaded machine a finite loop can take
// seconds (go-retry's 100,000 retries on a machine with a load of 12).
const busyHangFactor = 12

// busyDetached tells whether the detached goroutines called hooks since
// the idle period began (at hooks) and it has lasted less than
// busyHangFactor times hangAfter. e.mu is held.
func (e *engine) busyDetached(idle time.Duration, hooks int64) bool {
	return e.hookCount() != hooks && idle < busyHangFactor*e.cfg.hangAfter
}

// detachCurrent lets the others run beside g, the current goroutine, which
// runs or waits in code Period does not control (blocked: for real, on
// I/O, a channel or a lock of the standard library). e.mu is held.
func (e *engine) detachCurrent(g *gstate, blocked bool) {
	if blocked {
		e.realWait(g)
	}
	if g.childWait {
		e.childUsed()
	}
	if blocked && e.realAnchor.IsZero() && !e.bubble {
		// Blocked for real since it was chosen, at most stampEvery
		// steps after the last stamp (the clock has not moved
		// since): real time passes from then.
		e.realAnchor, e.vAnchor = time.Unix(0, e.stepStamp.Load()), e.vnow()
		e.waitedReal = time.Since(e.realAnchor) // nobody else ran meanwhile
	}
	g.status = gDetached
	e.detached++
	e.everDetached = true
	if !blocked {
		// It may be computing (detachedWorking): not a goroutine detached
		// for real I/O, whose hooks after the wait are no long work.
		now := time.Now()
		e.workDetach, e.workHooks, e.workFrom, e.workSeen = true, e.detachedHooks, now, now
	}
	e.cur = nil
	e.decide(nil)
}

// detachedWorkLook is how often the engine looks whether a detached
// goroutine still computes in instrumented code (detachedWorking).
const detachedWorkLook = 10 * time.Millisecond

// workHoldFactor times the hang limit is how long a detached goroutine's
// work holds the clock (detachedWorking): work that takes longer under
// Period (a hundred to a few hundred times its native time) meets a
// deadline set against it; a shorter hold made false failures of
// twmb/avro's DoS batteries on a loaded machine.
const workHoldFactor = busyHangFactor - 2

// detachedWorking tells whether a goroutine detached computing has called
// hooks within the last workQuiet (it was looked at every
// detachedWorkLook), for less than workHoldFactor times the hang limit of real
// time: past that, the clock jumps again, so that a computation that never
// ends (a spin on the goroutine's own memory) still meets its test's
// timeout, and the test fails as it does natively, before the watchdog
// gives the busy goroutine up (busyHangFactor) and the run with it.
// e.mu is held.
func (e *engine) detachedWorking() bool {
	now := time.Now()
	if h := e.detachedHooks; h != e.workHooks {
		e.workHooks, e.workSeen = h, now
	}
	return e.workDetach && now.Sub(e.workSeen) < workQuiet && now.Sub(e.workFrom) < workHoldFactor*e.cfg.hangAfter
}

// workQuiet is how long a detached goroutine may call no hook before its
// work no longer holds the clock: on a loaded machine a computing
// goroutine can wait that long for a processor (10 ms was not enough:
// a spin past a deadline lost its hold in the middle of a full test run).
const workQuiet = 250 * time.Millisecond

// watchdog detaches a current goroutine that runs too long without reaching a
// key point, so that the others can go on; a run with nothing left but
// detached goroutines for too long is a hang.
//
// It is a timer that re-arms itself, not a goroutine: between checks no
// goroutine of Period's exists, so code that lists the process's goroutines
// (goleak, runtime.NumGoroutine) sees the test's goroutines only.
func (e *engine) watchdog() (stop func()) {
	var quit atomic.Bool
	limit := e.cfg.watchdog
	var idleSince time.Time
	var idleHooks int64
	var idleCPU time.Duration // the process's CPU time when the idle period began
	var hookSeen int64        // hookCount at the last check
	var hookAt time.Time      // when it last changed
	var suspect *gstate       // the goroutine a check found spinning (confirmed at the next)
	var suspectHooks int64
	lastProgress, stalledSince := e.progress.Load(), time.Now()
	var lookedStall time.Time // the stall whose current goroutine check looks at
	var lookGap time.Duration // how long into that stall it looks next
	var timer *time.Timer
	var mu sync.Mutex // orders a check against stop's Stop of the timer
	detach := e.detachCurrent
	// probe is the check between two full ones: a current goroutine that
	// has not reached a key point for quickTick is looked at once, and
	// detached if blocked for real, so that the others run on within
	// milliseconds, as beside a goroutine waiting for the network (a
	// hedged request 10 ms after another one).
	quickTick := max(limit/(50*quickPerCheck), probeMin)
	perCheck := max(1, int(limit/50/quickTick)) // ticks from one full check to the next
	probeAfter := quickTick                     // grows with the cost of a dump
	probed := int64(-1)                         // the step count whose stall was probed
	probe := func() bool {
		if quit.Load() {
			return false
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.finished {
			return false
		}
		now := time.Now()
		if p := e.progress.Load(); p != lastProgress {
			lastProgress, stalledSince = p, now
		}
		if probed == lastProgress || now.Sub(stalledSince) < probeAfter {
			return true
		}
		probed = lastProgress
		if g := e.cur; g != nil && !g.inTRun && e.transit == 0 && !e.settlingOutside {
			blocked := waitsForOthers(g.goid)
			probeAfter = max(quickTick, probeCostFactor*time.Since(now))
			if blocked {
				detach(g, true)
			}
		} else if e.transit > 0 && !e.free {
			// A rendezvous partner on its way to its next key point
			// blocked for real (a reader back at its socket after
			// handing over what it read): the run must not wait for it.
			for _, g := range e.gs {
				if g.settling && g.status == gRunning && waitsForOthers(g.goid) {
					e.settle(g)
					e.realWait(g)
					if e.realAnchor.IsZero() && !e.bubble {
						e.realAnchor, e.vAnchor = time.Unix(0, e.stepStamp.Load()), e.vnow()
						e.waitedReal = time.Since(e.realAnchor)
					}
					g.status = gDetached
					e.detached++
					e.everDetached = true
				}
			}
		}
		return true
	}
	check := func() bool {
		if quit.Load() {
			return false
		}
		e.mu.Lock()
		if e.finished {
			e.mu.Unlock()
			return false
		}
		now := time.Now()
		if p := e.progress.Load(); p != lastProgress {
			lastProgress, stalledSince = p, now
		}
		if e.transit > 0 && now.Sub(stalledSince) > limit {
			// A rendezvous partner never reached its next key point
			// (blocked or spinning outside control): detach it too.
			for _, g := range e.gs {
				if g.settling {
					e.settle(g)
					g.status = gDetached
					e.detached++
					e.everDetached = true
				}
			}
		}
		if e.free && e.cur == nil && now.Sub(stalledSince) > limit {
			// Free goroutines that reach no key point while nobody
			// else can move: detached, as the serial engine would.
			for _, g := range e.gs {
				if g.status == gRunning && !g.settling {
					g.status = gDetached
					e.detached++
					e.everDetached = true
				}
			}
		}
		if lookedStall != stalledSince {
			lookedStall, lookGap = stalledSince, limit/50
		}
		if g := e.cur; g != nil && !g.inTRun && e.transit == 0 && !e.settlingOutside && now.Sub(stalledSince) >= lookGap {
			// Each look dumps every goroutine's stack (milliseconds with
			// hundreds of goroutines): a current goroutine that computes
			// long is looked at after twice as long each time.
			lookGap = min(2*lookGap, limit)
			if blocked := realBlocked(g.goid); blocked || now.Sub(stalledSince) > limit {
				// A real sleep is detached as before, but keeps virtual
				// time: only waits for others are real time passing.
				detach(g, blocked && waitsForOthers(g.goid))
			}
		}
		if e.cur == nil && e.detached > 0 && e.transit == 0 {
			if n := e.countDetached(); n != e.detached {
				// The count drifted from the goroutines' states (a
				// goroutine's end raced with its detaching): the states
				// are right, and a run that waits for nobody decides.
				e.detached = n
				if n == 0 {
					e.decide(nil)
					e.mu.Unlock()
					return true
				}
			}
			if h := e.hookCount(); h != hookSeen || hookAt.IsZero() {
				hookSeen, hookAt = h, now
			}
			if idleSince.IsZero() {
				idleSince, idleHooks = now, e.hookCount()
				idleCPU, _ = processCPU()
			} else if e.rootDone && now.Sub(idleSince) > afterRootRealWait && now.Sub(hookAt) > afterRootRealWait && e.detachedAllWaiting() {
				// No hook for afterRootRealWait (a detached goroutine
				// that ended after the test returned called its last
				// hook: it no longer counts, or the run waited for the
				// watchdog's minute; go-socks5's TestSOCKS5_Connect).
				e.leftWaitingOutside()
				e.mu.Unlock()
				return false
			} else if now.Sub(idleSince) > e.cfg.hangAfter && !e.busyDetached(now.Sub(idleSince), idleHooks) {
				if e.waitingForChild() {
					// A child process runs on its own (go test's own
					// run of go build: testify's failfast test): the
					// wait ends when it does, as under go test, and
					// -timeout bounds it. Looked at again a hangAfter
					// later, not at every check (a dump of all stacks).
					idleSince, idleHooks = now, e.hookCount()
					idleCPU, _ = processCPU()
					e.mu.Unlock()
					return true
				}
				var where string
				for _, g := range e.hangSuspects() {
					where = g.lastSite
					if realBlocked(g.goid) {
						// Waiting in code Period does not control (a
						// dependency's mock clock, the network) is
						// Period's blind spot, not the program's bug:
						// the schedule is abandoned without a verdict.
						e.outsideWait = fmt.Sprintf("goroutine g%s waited for over %v in code Period does not control%s", g.path, e.cfg.hangAfter, afterSite(g))
						e.exitIfStuck(g, e.outsideWait, where, false)
						break
					}
					if in := busyOutsideProgram(g.goid); in != "" {
						// A long computation in the standard library or
						// the runtime (no hook there) is given the time a
						// busy goroutine gets; past it, the schedule is
						// abandoned without a verdict, as for a wait there.
						if now.Sub(idleSince) < busyHangFactor*e.cfg.hangAfter {
							e.mu.Unlock()
							return true
						}
						if e.hookCount() != idleHooks {
							// It ran instrumented code too (a parse of
							// megabytes): the sample only caught it in
							// the runtime or the standard library.
							in = "the program's code and " + in
						}
						e.outsideWait = fmt.Sprintf("goroutine g%s computed for over %v in %s without returning%s", g.path, busyHangFactor*e.cfg.hangAfter, in, afterSite(g))
						e.exitIfStuck(g, e.outsideWait, where, false)
						break
					}
					if st, status := stackAndStatus(g.goid); st != nil && !runningStatus(status) {
						// It does not run: it waits, where realBlocked
						// does not count a wait as the program's (inside
						// Period: a turn nobody gives it). A wait is no
						// spin: the schedule is abandoned without a
						// verdict (goccy/go-json's benchcheck: a test
						// detached while waiting in t.Run was called
						// spinning, its subtests' child processes having
						// used the CPU).
						e.outsideWait = fmt.Sprintf("goroutine g%s waited (%s) for over %v inside Period without being resumed (a defect of Period's: please report it)%s", g.path, status, e.cfg.hangAfter, afterSite(g))
						e.exitIfStuck(g, e.outsideWait, where, false)
						break
					}
					if cpu, ok := processCPU(); ok && cpu-idleCPU < e.cfg.hangAfter {
						// A spin uses a processor the whole time: this
						// process has had less than hangAfter of CPU
						// since the stall began, so the machine, not
						// the goroutine, held it up (an exploration
						// beside two instrumented builds on two cores
						// called a 5 MB decode spinning). Judged again
						// once it has had that much.
						e.mu.Unlock()
						return true
					}
					if suspect != g || suspectHooks != e.hookCount() {
						// Seen once: it may be on its way back (between a
						// computation's end and its next hook, or waiting
						// for e.mu, held here). A hang is what the next
						// check still sees.
						suspect, suspectHooks = g, e.hookCount()
						e.mu.Unlock()
						return true
					}
					msg := fmt.Sprintf("goroutine g%s ran for over %v %s%s", g.path, e.cfg.hangAfter, spinningHang, afterSite(g))
					e.report(bug{kind: "hang", message: msg, location: where})
					e.exitIfStuck(g, msg, where, true)
					break
				}
				e.stop()
				e.mu.Unlock()
				return false
			}
		} else {
			idleSince, suspect = time.Time{}, nil
		}
		e.mu.Unlock()
		return true
	}
	var tick func()
	ticks := 0
	tick = func() {
		periodOwn.Add(1)
		defer periodOwn.Add(-1)
		mu.Lock()
		defer mu.Unlock()
		ticks++
		ok := false
		if ticks%perCheck == 0 {
			ok = check()
		} else {
			ok = probe()
		}
		if ok {
			timer = time.AfterFunc(quickTick, tick)
		}
	}
	mu.Lock()
	timer = time.AfterFunc(quickTick, tick)
	mu.Unlock()
	return func() {
		quit.Store(true)
		mu.Lock()
		timer.Stop()
		mu.Unlock()
	}
}

// afterSite says where g was last seen, if it reached a key point at all.
func afterSite(g *gstate) string {
	if g.lastSite == "" {
		return " (before its first key point)"
	}
	return " after " + g.lastSite
}

// userStack is the calling goroutine's stack as a user wants to read it.
func userStack() string { return cleanStack(panicStack()) }

// cleanStack drops Period's own frames (the engine and its hooks) and the
// runtime's from a goroutine stack, and indents it for a report.
func cleanStack(raw []byte) string {
	lines := strings.Split(string(raw), "\n")
	var out []string
	for i := 1; i+1 < len(lines); i += 2 {
		fn, file := lines[i], lines[i+1]
		if isPeriodFrame(fn) || strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "panic(") {
			continue
		}
		out = append(out, "    "+stableFrame(fn), "    "+file)
	}
	return strings.Join(out, "\n")
}

// stableFrame drops what differs from one process to the next in a stack
// line (argument values, which are mostly addresses, and goroutine numbers),
// so that a replay prints the same report every time.
func stableFrame(fn string) string {
	if i := strings.Index(fn, " in goroutine "); i >= 0 && strings.HasPrefix(fn, "created by ") {
		return fn[:i]
	}
	if strings.HasSuffix(fn, ")") {
		if i := strings.LastIndexByte(fn, '('); i > 0 {
			return fn[:i] + "(...)"
		}
	}
	return fn
}

func panicStack() []byte {
	buf := make([]byte, 16<<10)
	return buf[:runtime.Stack(buf, false)]
}

// goIdle marks the engine idle: no controlled goroutine runs until a timer,
// a goroutine outside control or a detached one decides. e.mu is held.
func (e *engine) goIdle() {
	if !e.idle {
		e.idleFrom = time.Now()
	}
	e.idle = true
}
