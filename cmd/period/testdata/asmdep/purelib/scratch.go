// Package purelib is plain Go that only asmlib imports.
package purelib

type Scratch struct{ buf [8]int }

func (s *Scratch) Fill(v int) int {
	sum := 0
	for i := range s.buf {
		s.buf[i] = v
		sum += s.buf[i]
	}
	return sum
}
