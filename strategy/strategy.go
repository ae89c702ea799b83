//go:build go1.21

// Package strategy holds the exploration strategies of Period: the policies
// that decide, at every scheduling point of a controlled run, which goroutine
// executes its next key point, and which alternative fires where Go leaves a
// choice open (several ready cases of a select).
//
// The contract is deliberately small (see Strategy). The engine in package rt
// calls Begin before each run, Next at every scheduling point, Choose at every
// open choice, and End after the run with what the run did. Strategies never
// see goroutines or channels, only events, so they can be tested on simulated
// programs (see sim_test.go).
//
// This package is compiled into the program under test (through package rt),
// so it uses only the standard library and the Go 1.21 language (files carry
// a go1.21 build line so modules declaring older Go versions can use it).
package strategy

// GID names a goroutine the same way in every run of a test: it is the
// interned creation path ("0" for the test goroutine, "0.2" for its second
// child, ...). The engine assigns GIDs in order of first appearance in the
// process, so they are stable across runs of one process; Path converts back
// to the path, which is what replay files store.
type GID int32

// Op is the kind of key point a goroutine is about to execute.
type Op uint8

const (
	OpStart      Op = iota // first step of a new goroutine
	OpResume               // continue after an operation (e.g. after being woken)
	OpSend                 // channel send
	OpRecv                 // channel receive
	OpClose                // channel close
	OpSelect               // select statement
	OpLock                 // Mutex.Lock, RWMutex.Lock
	OpUnlock               // Mutex.Unlock, RWMutex.Unlock
	OpRLock                // RWMutex.RLock
	OpRUnlock              // RWMutex.RUnlock
	OpTryLock              // TryLock, TryRLock
	OpWGAdd                // WaitGroup.Add / Done
	OpWGWait               // WaitGroup.Wait
	OpOnce                 // Once.Do
	OpCondWait             // Cond.Wait
	OpCondSignal           // Cond.Signal / Broadcast
	OpAtomic               // sync/atomic operation
	OpRead                 // read of shared memory
	OpWrite                // write of shared memory
	OpSleep                // time.Sleep and timer waits
	OpYield                // runtime.Gosched
	OpExit                 // goroutine exit (recorded, not a choice)
)

var opNames = [...]string{"start", "resume", "send", "recv", "close", "select", "lock", "unlock",
	"rlock", "runlock", "trylock", "wg.add", "wg.wait", "once", "cond.wait", "cond.signal",
	"atomic", "read", "write", "sleep", "yield", "exit"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "op?"
}

// IsPoll reports whether the op only looks at state, or may leave it as it
// was (a yield, a read, an atomic, a try-lock, a select that may take its
// default): a run made of nothing else for long is a livelock, not work.
func (o Op) IsPoll() bool {
	switch o {
	case OpYield, OpRead, OpAtomic, OpTryLock, OpSelect, OpResume:
		return true
	}
	return false
}

// IsAccess reports whether the op is a plain shared-memory access.
func (o Op) IsAccess() bool { return o == OpRead || o == OpWrite }

// Event is one key point: the goroutine that executes it, what it does, on
// which object, and where in the source.
type Event struct {
	G    GID
	Op   Op
	Obj  uintptr // identity of the object (channel, mutex, variable address) within the run; 0 if none
	Site string  // "file.go:line" of the key point in the user's source
}

// Strategy decides the interleaving of one run at a time.
//
// The engine guarantees: Begin is called before every run and the run happens
// only if it returned true; Next receives a non-empty slice of the pending
// events of all enabled goroutines, sorted by GID, and must return an index
// into it without modifying or keeping the slice (the engine keeps it from
// one decision to the next); Choose receives n >= 2; End is called once after every run that
// Begin started, also when the run found a bug or was cut short.
// A strategy must be deterministic given its seed and the runs it observed.
type Strategy interface {
	// Name is the name given to -strategy.
	Name() string
	// Begin prepares the next run and reports whether there is one.
	Begin() bool
	// Next picks which enabled goroutine executes its pending key point.
	Next(enabled []Event) int
	// Choose picks one of n alternatives Go leaves open to the runtime, such
	// as which of n ready select cases fires. The event is the key point
	// making the choice.
	Choose(at Event, n int) int
	// End reports what the run did.
	End(r *Run)
}

// Run is what one controlled execution did, as strategies see it.
type Run struct {
	Index  int     // 0-based index of the run within the exploration
	Events []Event // every key point executed, in order (the run's interleaving); nil for a LogReader
	// Log is the same record, kept by the engine (nil when a Run is built
	// from Events alone). Len and At read whichever is set.
	Log   EventLog
	Paths []string // Paths[g] is the creation path of GID g (covers every GID in Events)
	Buggy bool     // the run found a bug
	Cut   bool     // the run was cut short (step limit, hang, abort) before the test ended
	// Born[g], when known, is how many key points g's creator had executed
	// when it started g: g exists from the creator's key point Born[g]+1 on.
	Born map[GID]int
}

// EventLog is the record of a run's key points kept by the engine, read one
// event at a time: the engine stores it compactly (a run of millions of
// steps does not keep an Event, with its site string, per step).
type EventLog interface {
	Len() int
	At(i int) Event
}

// LogReader is implemented by strategies whose End reads the run only
// through Len and At (never Events directly): the engine then leaves
// Events nil and gives the record as Log, so that no slice of every event
// of a long run is built. Strategies that do not implement it get Events
// as before.
type LogReader interface {
	ReadsLog()
}

// Len is the number of key points the run executed.
func (r *Run) Len() int {
	if r.Events == nil && r.Log != nil {
		return r.Log.Len()
	}
	return len(r.Events)
}

// At is the i-th key point the run executed (0 <= i < Len()).
func (r *Run) At(i int) Event {
	if r.Events == nil && r.Log != nil {
		return r.Log.At(i)
	}
	return r.Events[i]
}

// Slice returns the run's dynamic key point slice: per goroutine, the sites of
// its key points in execution order.
func (r *Run) Slice() map[GID][]string {
	s := make(map[GID][]string)
	for i, n := 0, r.Len(); i < n; i++ {
		e := r.At(i)
		s[e.G] = append(s[e.G], e.Site)
	}
	return s
}

// Options configure a strategy. Zero values select each strategy's default.
type Options struct {
	Seed   int64  // seed of randomized strategies
	Bound  int    // strategy-specific bound (periods, preemptions, delays, depth, variables)
	Budget int    // schedules the exploration may use; strategies may use it to plan
	Focus  string // PEDAL: restrict preemptions to key points whose site or object matches
}

// Describer is implemented by strategies that can show the current run's
// schedule in their own notation (PERIOD: <{t0},{t1,t1},{t0,t2..}>). The
// engine calls it after End and prints it beside the trace of a failure.
type Describer interface {
	Describe() string
}

// Releaser is implemented by strategies whose runs may end uncontrolled
// (PERIOD's last period). With rt.Config.Parallel the engine asks Release
// right after every Next until it returns true; from then on the run is in
// free mode: goroutines run truly in parallel, the engine serializes their
// key points in the order they happen and stops calling Next (it may call it
// again if it has to take control back). End then receives events that Next
// did not pick.
type Releaser interface {
	Release() bool
}

// Checkpointer is implemented by strategies that can save and restore their
// exploration state between runs. When a run kills the test process (os.Exit,
// a fatal runtime error), the period command restarts the process, restores
// the checkpoint taken before that run, reports the run as cut and goes on.
type Checkpointer interface {
	Checkpoint() []byte
	Restore([]byte) error
}
