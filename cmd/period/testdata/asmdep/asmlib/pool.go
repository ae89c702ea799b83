// Package asmlib has assembly, so Period leaves it uninstrumented: the
// channel that hands its scratch buffers from caller to caller is outside
// the model.
package asmlib

import "example.com/purelib"

type Pool struct{ ch chan *purelib.Scratch }

func New() *Pool {
	p := &Pool{ch: make(chan *purelib.Scratch, 1)}
	p.ch <- &purelib.Scratch{}
	return p
}

// Use fills a scratch buffer it takes from the pool and gives back.
func (p *Pool) Use(v int) int {
	nop()
	s := <-p.ch
	n := s.Fill(v)
	p.ch <- s
	return n
}
