//go:build go1.22

//line in.go:1
// rewrite: go=1.13

// Package fileversion is in a go 1.13 module but its build line makes it a
//line in.go:5
// Go 1.22 file: per-iteration loop variables, and no go1.21 line is added.
//line in.go:7
package fileversion

//line in.go:7
import _prt "github.com/period-dev/period/rt"

func Loop(ch chan int) []func() int {
	var fs []func() int
	{
//line in.go:11
  _prt0 := ch
//line in.go:11
  for v, _prt1 := _prt.Recv2("in.go:11", _prt0); _prt1; v, _prt1 = _prt.Recv2("in.go:11", _prt0) {
			fs = append(fs, func() int { return v })
		}
//line in.go:11
 }

//line in.go:14
 return fs
}
