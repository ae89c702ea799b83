//go:build go1.21

package rt

import (
	"math/rand"
	"sync"
	"time"
)

// Random numbers. The top-level functions of math/rand and math/rand/v2
// draw from a source seeded at random when the process starts, so a bug
// that needs some value (a jittered backoff, a random pick) shows in some
// schedules and not in their replays. Inside a controlled run they draw from
// a source of the run instead, seeded by the exploration's seed and the
// schedule's number: the same schedule gets the same values, in a replay
// too, and other schedules other values. The rewriter turns rand.Intn(n)
// into rt.MathRand().Intn(n) (and rand.N(d) into rt.RandN(d)). Sources a
// program makes itself (rand.New) are left alone.

// lockedSource makes a source safe for goroutines running at once
// (goroutines outside control, free mode).
type lockedSource struct {
	mu  sync.Mutex
	src rand.Source64
}

func (s *lockedSource) Int63() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.src.Int63()
}

func (s *lockedSource) Uint64() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.src.Uint64()
}

func (s *lockedSource) Seed(seed int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.src.Seed(seed)
}

var plainSrc = &lockedSource{src: rand.NewSource(time.Now().UnixNano()).(rand.Source64)}

// runSeed is the seed of the current run's random numbers: the exploration's
// seed, the schedule's number and the test's name. Without the name every
// test's first schedule drew the same numbers, where go test draws new ones
// in every process: badger's table tests name their files rand.Uint32()
// and leave them behind, and every test after the first failed with
// "file exists". e.mu is held.
func (e *engine) runSeed() int64 {
	return int64(uint64(e.cfg.Seed)*0x9e3779b97f4a7c15 ^ uint64(e.runIdx+1)*0xbf58476d1ce4e5b9 ^ e.testHash)
}

// nameHash is FNV-1a of name.
func nameHash(name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * 1099511628211
	}
	return h
}

// MathRand is what math/rand's top-level functions draw from: for a
// controlled goroutine the run's math/rand source, a stream of its own that
// map iteration order and crypto/rand never draw from (natively they do not
// touch math/rand's global source either: sprig's TestShuffle seeds it with
// 1 and expects the shuffle of that seed, and a map range between the Seed
// and the shuffle took one number from it); otherwise the process's global
// source, as natively.
func MathRand() *rand.Rand {
	e := eng
	_, md := e.enter()
	if md != modeControl {
		return rand.New(globalSource{})
	}
	defer e.mu.Unlock()
	if e.mathRandSrc == nil {
		e.mathRandSrc = &lockedSource{src: rand.NewSource(e.runSeed() ^ mathRandStream).(rand.Source64)}
	}
	return rand.New(e.mathRandSrc)
}

// mathRandStream tells the run's math/rand stream from its other one.
const mathRandStream = 0x2545f4914f6cdd1d

// RandSeed is math/rand's Seed. It seeds the process's global source, as
// natively (code Period does not rewrite draws from it), and, if that took
// effect, the run's math/rand source too, so that a test that seeds and
// expects the sequence of its seed gets it. Since Go 1.24 Seed does nothing
// when the main module says go 1.24 or later (GODEBUG randseednop): then
// the run's source is left alone too.
func RandSeed(seed int64) {
	if !seedGlobal(seed) {
		return
	}
	e := eng
	_, md := e.enter()
	if md != modeControl {
		return
	}
	defer e.mu.Unlock()
	e.mathRandSrc = &lockedSource{src: rand.NewSource(seed).(rand.Source64)}
}

// seedGlobal seeds math/rand's global source and tells whether that took
// effect, by its first number, and seeds it again to rewind it.
func seedGlobal(seed int64) bool {
	rand.Seed(seed)
	if rand.Int63() != rand.NewSource(seed).Int63() {
		return false
	}
	rand.Seed(seed)
	return true
}

// globalSource is math/rand's global source.
type globalSource struct{}

func (globalSource) Int63() int64 { return rand.Int63() }

func (globalSource) Uint64() uint64 { return rand.Uint64() }

func (globalSource) Seed(seed int64) { seedGlobal(seed) }

// randSource is the run's source for a controlled goroutine, the process's
// otherwise.
func randSource() *lockedSource {
	e := eng
	_, md := e.enter()
	if md != modeControl {
		return plainSrc
	}
	defer e.mu.Unlock()
	return e.runSource()
}

// runSource is the run's source of map iteration order, crypto/rand and
// math/rand/v2, made at its first use. e.mu is held.
func (e *engine) runSource() *lockedSource {
	if e.randSrc == nil {
		e.randSrc = &lockedSource{src: rand.NewSource(e.runSeed()).(rand.Source64)}
	}
	return e.randSrc
}
