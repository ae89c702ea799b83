//line in.go:1
package gostmt

import "sync"
//line in.go:3
import _prt "github.com/period-dev/period/rt"

type server struct{ n int }

func (s *server) run(x int) { *_prt.W("in.go:7", &s.n) = x }

func work(a, b int) {}

func pair() (int, string) { return 1, "a" }

func takes(n int, s string) {}

func sum(xs ...int) {}

func next() int { return 0 }

func Spawn(s *server, f func(int), xs []int) {
	var wg sync.WaitGroup
	a := 1
	{
//line in.go:22
  _prt0, _prt1 := a, next()
//line in.go:22
  _prt.Go("in.go:22", func() { work(_prt0, _prt1) })
//line in.go:22
 }
			{
//line in.go:23
  _prt2, _prt3 := s.run, a
//line in.go:23
  _prt.Go("in.go:23", func() { _prt2(_prt3) })
//line in.go:23
 }
			{
//line in.go:24
  _prt4 := f
//line in.go:24
  _prt.Go("in.go:24", func() { _prt4(3) })
//line in.go:24
 }
			_prt.Go("in.go:25", func() {
		_prt.WGDone("in.go:26", &wg)
	})
	{
//line in.go:28
  _prt5 :=

			a
//line in.go:28
  _prt.Go("in.go:28", func() {
//line in.go:28
   func(v int) {
				_ = v
			}(_prt5)
//line in.go:30
  })
//line in.go:28
 }

//line in.go:31
 {
//line in.go:31
  _prt6, _prt7 := pair()
//line in.go:31
  _prt.Go("in.go:31", func() { takes(_prt6, _prt7) })
//line in.go:31
 }
	{
//line in.go:32
  _prt8 := xs
//line in.go:32
  _prt.Go("in.go:32", func() { sum(_prt8...) })
//line in.go:32
 }
			_prt.Go("in.go:33", func() { _prt.WGWait("in.go:33", &wg) })
			{
//line in.go:34
  _prt9 := a
//line in.go:34
  _prt.Go("in.go:34", func() { println("hi", _prt9) })
//line in.go:34
 }
}
