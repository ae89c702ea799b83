//go:build (linux || darwin) && go1.21

//line in.go:1
// rewrite: go=1.13

//line in.go:6
// Package buildtag is an old module: loop variables are shared.
package buildtag

//line in.go:7
import _prt "github.com/period-dev/period/rt"

func Loop(ch chan int) []func() int {
	var fs []func() int
	{
//line in.go:11
  _prt0 := ch
//line in.go:11
  for v, _prt1 := _prt.Recv2("in.go:11", _prt0); _prt1; func() {
//line in.go:11
   _prt2, _prt3 := _prt.Recv2("in.go:11", _prt0)
//line in.go:11
   if _prt3 {
//line in.go:11
    v = _prt2
//line in.go:11
   }
//line in.go:11
   _prt1 = _prt3
//line in.go:11
  }() {
			fs = append(fs, func() int { return *_prt.R("in.go:12", &v) })
		}
//line in.go:11
 }

//line in.go:14
 return fs
}
