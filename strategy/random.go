//go:build go1.21

package strategy

import (
	"encoding/binary"
	"errors"
	"math/rand"
)

// randomStrategy is the random walk: at every scheduling point it runs an
// enabled goroutine chosen uniformly, and answers every choice uniformly.
// Run i draws from its own stream derived from (Seed, i), so any run can be
// reproduced, and resumed after a crash, from its index alone.
type randomStrategy struct {
	seed int64
	run  int // index of the next run
	rng  *rand.Rand
}

func init() {
	Register("random", func(o Options) Strategy { return &randomStrategy{seed: o.Seed} })
}

func (s *randomStrategy) Name() string { return "random" }

func (s *randomStrategy) Begin() bool {
	s.rng = rngFor(s.seed, uint64(s.run))
	s.run++
	return true
}

func (s *randomStrategy) Next(enabled []Event) int { return s.rng.Intn(len(enabled)) }

func (s *randomStrategy) Choose(at Event, n int) int { return s.rng.Intn(n) }

func (s *randomStrategy) End(r *Run) {}

// Checkpoint saves the index of the next run: the only state there is.
func (s *randomStrategy) Checkpoint() []byte {
	return binary.AppendUvarint(nil, uint64(s.run))
}

func (s *randomStrategy) Restore(b []byte) error {
	v, n := binary.Uvarint(b)
	if n <= 0 || n != len(b) {
		return errors.New("random: bad checkpoint")
	}
	s.run = int(v)
	return nil
}

// rngSource is splitmix64: a math/rand source whose whole state is one word,
// so that streams are cheap to derive.
type rngSource struct{ s uint64 }

func (r *rngSource) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func (r *rngSource) Int63() int64    { return int64(r.Uint64() >> 1) }
func (r *rngSource) Seed(seed int64) { r.s = uint64(seed) }

// rngFor returns the random stream number stream of a seed. All randomized
// strategies draw only from such streams, so that a seed fixes everything.
func rngFor(seed int64, stream uint64) *rand.Rand {
	src := &rngSource{s: uint64(seed)}
	src.s ^= (&rngSource{s: stream*0x2545f4914f6cdd1d + 1}).Uint64()
	return rand.New(src)
}

// ReadsLog: End reads the run through Len and At (LogReader).
func (s *randomStrategy) ReadsLog() {}
