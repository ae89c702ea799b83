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

// MathRand is what math/rand's top-level functions draw from: the run's
// source for a controlled goroutine, the process's otherwise.
func MathRand() *rand.Rand {
	return rand.New(randSource())
}

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

// runSource is the run's source, made at its first use. e.mu is held.
func (e *engine) runSource() *lockedSource {
	if e.randSrc == nil {
		e.randSrc = &lockedSource{src: rand.NewSource(e.runSeed()).(rand.Source64)}
	}
	return e.randSrc
}
