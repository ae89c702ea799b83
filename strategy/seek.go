//go:build go1.21

package strategy

import (
	"encoding/binary"
	"errors"
)

// Seeker is implemented by seeded strategies whose run i is decided by the
// seed, i and a small state that earlier runs feed back and that rarely
// changes (PCT's longest run, PPCT's goroutine count): run i can then be run
// in another process, from a checkpoint taken before any run, as long as
// that state is the one the runs before i would have left. Split
// exploration (period test -p, -shard) relies on it: it runs schedules of
// one test in several processes and keeps only those whose starting state
// was right (see rt/split.go).
type Seeker interface {
	Strategy
	Checkpointer
	// Seek makes the next Begin start run index run (0-based).
	Seek(run int)
	// Stable is the state runs feed back, without the run index: a run
	// after which it differs changes every later run.
	Stable() []byte
}

func (s *randomStrategy) Seek(run int)   { s.run = run }
func (s *randomStrategy) Stable() []byte { return nil }

// Checkpoint saves PCT's state between runs: the next run's index and the
// longest run seen.
func (s *pctStrategy) Checkpoint() []byte {
	return binary.AppendUvarint(binary.AppendUvarint(nil, uint64(s.run)), uint64(s.k))
}

func (s *pctStrategy) Restore(b []byte) error {
	v, err := uvarints(b, 2)
	if err != nil {
		return errors.New("pct: bad checkpoint")
	}
	s.run, s.k = int(v[0]), int(v[1])
	return nil
}

func (s *pctStrategy) Seek(run int)   { s.run = run }
func (s *pctStrategy) Stable() []byte { return binary.AppendUvarint(nil, uint64(s.k)) }

// Checkpoint saves PPCT's state between runs: the next run's index, the
// longest run and the most goroutines seen.
func (s *ppctStrategy) Checkpoint() []byte {
	b := binary.AppendUvarint(nil, uint64(s.run))
	return append(s.Stable(), b...)
}

func (s *ppctStrategy) Restore(b []byte) error {
	v, err := uvarints(b, 3)
	if err != nil {
		return errors.New("ppct: bad checkpoint")
	}
	s.k, s.n, s.run = int(v[0]), int(v[1]), int(v[2])
	return nil
}

func (s *ppctStrategy) Seek(run int) { s.run = run }
func (s *ppctStrategy) Stable() []byte {
	return binary.AppendUvarint(binary.AppendUvarint(nil, uint64(s.k)), uint64(s.n))
}

// uvarints decodes exactly n unsigned varints.
func uvarints(b []byte, n int) ([]uint64, error) {
	var out []uint64
	for i := 0; i < n; i++ {
		v, k := binary.Uvarint(b)
		if k <= 0 {
			return nil, errors.New("short")
		}
		out = append(out, v)
		b = b[k:]
	}
	if len(b) != 0 {
		return nil, errors.New("long")
	}
	return out, nil
}
