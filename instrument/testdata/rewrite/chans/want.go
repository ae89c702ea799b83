//line in.go:1
package chans

//line in.go:1
import _prt "github.com/period-dev/period/rt"

type C chan int

func Chans(ch chan int, out chan<- string, in <-chan string, c C) (int, bool) {
	_prt.Send("in.go:6", ch, 1)
	_prt.Send("in.go:7", out, "x")
	_prt.Send("in.go:8", c, _prt.Recv("in.go:8", ch))
	x := _prt.Recv("in.go:9", ch) + _prt.Recv("in.go:9", ch)
	v, ok := _prt.Recv2("in.go:10", in)
	_ = v
	var w string
	w, ok = _prt.Recv2("in.go:13", in)
	_ = w
	if _prt.Recv("in.go:15", ch) > 0 {
		_prt.Close("in.go:16", ch)
	}
	{
				_prt1 := ch
//line in.go:18
  _prt0 := _prt.Select("in.go:18", true, _prt.RecvCase(_prt1))
//line in.go:18
  select {
		case <-_prt.RecvIf(_prt0, 0, _prt1):
//line in.go:19
   _prt.SelectDone(_prt0)
		case <-_prt.DefaultIf(_prt0):
//line in.go:20
   _prt.SelectDone(_prt0)
		}
//line in.go:21
 }
	return x, ok
}

func Ranges(ch chan int) int {
	n := 0
	{
//line in.go:27
  _prt2 := ch
//line in.go:27
  for v, _prt3 := _prt.Recv2("in.go:27", _prt2); _prt3; v, _prt3 = _prt.Recv2("in.go:27", _prt2) {
			n += v
		}
//line in.go:27
 }

//line in.go:30
 {
//line in.go:30
  _prt4 := ch
//line in.go:30
  for _, _prt5 := _prt.Recv2("in.go:30", _prt4); _prt5; _, _prt5 = _prt.Recv2("in.go:30", _prt4) {
			n++
		}
//line in.go:30
 }

//line in.go:33
 var last int
	{
//line in.go:34
  _prt6 := ch
//line in.go:34
  for {
//line in.go:34
   _prt8, _prt7 := _prt.Recv2("in.go:34", _prt6)
//line in.go:34
   if !_prt7 {
//line in.go:34
    break
//line in.go:34
   }
//line in.go:34
   last = _prt8
					if last < 0 {
				continue
			}
		}
//line in.go:34
 }

//line in.go:40
 {
//line in.go:40
  _prt9 := ch
//line in.go:39
 outer:
		for v, _prt10 := _prt.Recv2("in.go:40", _prt9); _prt10; v, _prt10 = _prt.Recv2("in.go:40", _prt9) {
			{
//line in.go:41
    _prt11 := ch
//line in.go:41
    for w, _prt12 := _prt.Recv2("in.go:41", _prt11); _prt12; w, _prt12 = _prt.Recv2("in.go:41", _prt11) {
					if w == v {
						continue outer
					}
					if w > v {
						break outer
					}
				}
//line in.go:41
   }

//line in.go:49
  }
//line in.go:40
 }

//line in.go:50
 return n + last
}

func Loopvar(ch chan int) []func() int {
	var fs []func() int
	{
//line in.go:55
  _prt13 := ch
//line in.go:55
  for v, _prt14 := _prt.Recv2("in.go:55", _prt13); _prt14; v, _prt14 = _prt.Recv2("in.go:55", _prt13) {
			fs = append(fs, func() int { return v })
		}
//line in.go:55
 }

//line in.go:58
 return fs
}
