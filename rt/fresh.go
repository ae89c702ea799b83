//go:build go1.21

package rt

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/period-dev/period/strategy"
)

// Fresh processes (Config.Fresh): one schedule per test process, so that
// every schedule runs the test for the first time in its process, as
// go test -count=1 does. What an exploration knows between schedules moves
// from one process to the next in a state file: the strategy's state, the
// goroutine path table (so GIDs are the same as in one long process), the
// memory sites learned shared, the first schedule's length and the bugs
// reported. The schedules are the ones one long process would run.

// freshState is the content of the state file.
type freshState struct {
	Test, Strategy string
	Seed           int64
	Bound          int
	Schedules      int      // schedules explored so far
	Exhausted      bool     // the strategy has no schedule left
	Paths          []string // goroutine creation paths, by GID
	Shared         []string // memory sites known to be shared
	FirstSteps     int
	Seen           []string // keys of the bugs reported
	// Strategies that implement strategy.Checkpointer save their state;
	// the others are rebuilt by replaying every call they received (the
	// contract makes a strategy deterministic given its seed and its runs).
	Checkpoint []byte
	Journal    []byte
	Sites      []string // site table of Journal
}

func loadFresh(path string, cfg Config, test string) (*freshState, error) {
	st := &freshState{Test: test, Strategy: cfg.Strategy, Seed: cfg.Seed, Bound: cfg.Bound}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, st); err != nil {
		return nil, fmt.Errorf("fresh state %s: %v", path, err)
	}
	if st.Test != test || st.Strategy != cfg.Strategy || st.Seed != cfg.Seed || st.Bound != cfg.Bound {
		return nil, fmt.Errorf("fresh state %s belongs to %s under %s seed %d bound %d", path, st.Test, st.Strategy, st.Seed, st.Bound)
	}
	return st, nil
}

func (st *freshState) save(path string) error {
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// internPaths gives the recorded paths their recorded GIDs; nothing may
// have been interned in this process before, but a prefix of them.
func internPaths(ps []string) error {
	pathMu.Lock()
	defer pathMu.Unlock()
	for i, p := range ps {
		if i < len(paths) {
			if paths[i] != p {
				return fmt.Errorf("goroutine %d is %s in this process, %s in the state file", i, paths[i], p)
			}
			continue
		}
		pathIDs[p] = strategy.GID(len(paths))
		paths = append(paths, p)
	}
	return nil
}

// restoreStrategy brings st to the state recorded in the file and returns
// the strategy to explore with (a journaling wrapper when st cannot
// checkpoint itself).
func (fs *freshState) restoreStrategy(st strategy.Strategy) (strategy.Strategy, error) {
	if err := internPaths(fs.Paths); err != nil {
		return nil, err
	}
	if cp, ok := st.(strategy.Checkpointer); ok {
		if fs.Checkpoint != nil {
			if err := cp.Restore(fs.Checkpoint); err != nil {
				return nil, err
			}
		}
		return st, nil
	}
	j := &journal{Strategy: st, sites: map[string]int{}, siteList: fs.Sites, buf: fs.Journal}
	for i, s := range fs.Sites {
		j.sites[s] = i
	}
	if err := j.replay(fs.Paths); err != nil {
		return nil, fmt.Errorf("%s: rebuilding the exploration state: %v", st.Name(), err)
	}
	return j, nil
}

// record saves what the exploration knows after its last schedule.
func (fs *freshState) record(st strategy.Strategy, e *engine, schedule int, seen map[string]bool) {
	fs.Schedules = schedule
	fs.Paths = allPaths()
	fs.Shared = fs.Shared[:0]
	for s := range e.mem.shared {
		fs.Shared = append(fs.Shared, s)
	}
	for s := range e.mem.learned {
		if !e.mem.shared[s] {
			fs.Shared = append(fs.Shared, s)
		}
	}
	fs.FirstSteps = e.cfg.firstSteps
	fs.Seen = fs.Seen[:0]
	for k := range seen {
		fs.Seen = append(fs.Seen, k)
	}
	switch s := st.(type) {
	case *journal:
		fs.Journal, fs.Sites = s.buf, s.siteList
	case strategy.Checkpointer:
		fs.Checkpoint = s.Checkpoint()
	}
}

// journal records every call a strategy receives, compactly, so that
// another process can replay them and reach the same state.
type journal struct {
	strategy.Strategy
	buf      []byte
	sites    map[string]int
	siteList []string
}

const (
	jBegin byte = 'B'
	jNext  byte = 'N'
	jPick  byte = 'C'
	jEnd   byte = 'E'
)

func (j *journal) Begin() bool {
	ok := j.Strategy.Begin()
	j.buf = append(j.buf, jBegin, boolByte(ok))
	return ok
}

func (j *journal) Next(enabled []strategy.Event) int {
	i := j.Strategy.Next(enabled)
	j.buf = append(j.buf, jNext)
	j.buf = binary.AppendUvarint(j.buf, uint64(len(enabled)))
	for _, ev := range enabled {
		j.event(ev)
	}
	j.buf = binary.AppendUvarint(j.buf, uint64(i))
	return i
}

func (j *journal) Choose(at strategy.Event, n int) int {
	i := j.Strategy.Choose(at, n)
	j.buf = append(j.buf, jPick)
	j.event(at)
	j.buf = binary.AppendUvarint(j.buf, uint64(n))
	j.buf = binary.AppendUvarint(j.buf, uint64(i))
	return i
}

func (j *journal) End(r *strategy.Run) {
	j.Strategy.End(r)
	j.buf = append(j.buf, jEnd)
	j.buf = binary.AppendUvarint(j.buf, uint64(r.Index))
	j.buf = binary.AppendUvarint(j.buf, uint64(len(r.Paths)))
	j.buf = append(j.buf, boolByte(r.Buggy), boolByte(r.Cut))
	j.buf = binary.AppendUvarint(j.buf, uint64(r.Len()))
	for i, n := 0, r.Len(); i < n; i++ {
		j.event(r.At(i))
	}
	j.buf = binary.AppendUvarint(j.buf, uint64(len(r.Born)))
	for g, n := range r.Born {
		j.buf = binary.AppendUvarint(j.buf, uint64(g))
		j.buf = binary.AppendUvarint(j.buf, uint64(n))
	}
}

// readsLog tells whether st's End reads the run through Run.Len and At
// only (strategy.LogReader): then Run.Events is not built. A journal
// records through Len and At and hands its strategy the run it got.
func readsLog(st strategy.Strategy) bool {
	if j, ok := st.(*journal); ok {
		return readsLog(j.Strategy)
	}
	_, ok := st.(strategy.LogReader)
	return ok
}

func (j *journal) Describe() string {
	if d, ok := j.Strategy.(strategy.Describer); ok {
		return d.Describe()
	}
	return ""
}

func (j *journal) event(ev strategy.Event) {
	si, ok := j.sites[ev.Site]
	if !ok {
		si = len(j.siteList)
		j.sites[ev.Site] = si
		j.siteList = append(j.siteList, ev.Site)
	}
	j.buf = binary.AppendUvarint(j.buf, uint64(ev.G))
	j.buf = append(j.buf, byte(ev.Op))
	j.buf = binary.AppendUvarint(j.buf, uint64(ev.Obj))
	j.buf = binary.AppendUvarint(j.buf, uint64(si))
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// replay feeds the recorded calls to the strategy and checks that it gives
// the recorded answers.
func (j *journal) replay(allPaths []string) error {
	r := journalReader{b: j.buf, sites: j.siteList}
	for r.err == nil && len(r.b) > 0 {
		kind := r.byte()
		switch kind {
		case jBegin:
			want := r.byte() == 1
			if got := j.Strategy.Begin(); got != want {
				return fmt.Errorf("Begin gave %v, recorded %v", got, want)
			}
		case jNext:
			en := make([]strategy.Event, r.count())
			for i := range en {
				en[i] = r.event()
			}
			want := r.uint()
			if r.err == nil {
				if got := j.Strategy.Next(en); got != want {
					return fmt.Errorf("Next gave %d, recorded %d", got, want)
				}
			}
		case jPick:
			at, n := r.event(), r.uint()
			want := r.uint()
			if r.err == nil {
				if got := j.Strategy.Choose(at, n); got != want {
					return fmt.Errorf("Choose gave %d, recorded %d", got, want)
				}
			}
		case jEnd:
			run := &strategy.Run{Index: r.uint()}
			np := r.uint()
			run.Buggy, run.Cut = r.byte() == 1, r.byte() == 1
			run.Events = make([]strategy.Event, r.count())
			for i := range run.Events {
				run.Events[i] = r.event()
			}
			nb := r.count()
			run.Born = make(map[strategy.GID]int, nb)
			for i := 0; i < nb; i++ {
				g := strategy.GID(r.uint())
				run.Born[g] = r.uint()
			}
			if np > len(allPaths) {
				return errors.New("journal names more goroutines than the state file")
			}
			run.Paths = allPaths[:np:np]
			if r.err == nil {
				j.Strategy.End(run)
			}
		default:
			return fmt.Errorf("journal: unknown record %q", kind)
		}
	}
	return r.err
}

type journalReader struct {
	b     []byte
	sites []string
	err   error
}

func (r *journalReader) byte() byte {
	if len(r.b) == 0 {
		r.fail()
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *journalReader) uint() int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

// count reads a length, which cannot exceed what is left to read.
func (r *journalReader) count() int {
	n := r.uint()
	if n > len(r.b) {
		r.fail()
		return 0
	}
	return n
}

func (r *journalReader) event() strategy.Event {
	g := r.uint()
	op := r.byte()
	obj := r.uint()
	si := r.uint()
	if si >= len(r.sites) {
		r.fail()
		return strategy.Event{}
	}
	return strategy.Event{G: strategy.GID(g), Op: strategy.Op(op), Obj: uintptr(obj), Site: r.sites[si]}
}

func (r *journalReader) fail() {
	if r.err == nil {
		r.err = errors.New("journal cut short")
	}
	r.b = nil
}
