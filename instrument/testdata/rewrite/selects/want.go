//line in.go:1
package selects

//line in.go:1
import _prt "github.com/period-dev/period/rt"

func next() int { return 1 }

func chOf(c chan int) chan int { return c }

func Select(a, b chan int, out chan<- int) int {
	var got int
	{
				_prt1 := a

				_prt2 := chOf(b)

//line in.go:17
  _prt3 := a
			_prt4, _prt5 := out, next()
			_prt6 := out
//line in.go:9
  _prt0 := _prt.Select("in.go:9", false, _prt.RecvCase(_prt1), _prt.RecvCase(_prt2), _prt.RecvCase(_prt3), _prt.SendCase(_prt4), _prt.SendCase(_prt6))
//line in.go:9
  select {
		case v := <-_prt.RecvIf(_prt0, 0, _prt1):
//line in.go:10
   _prt.SelectDone(_prt0)
					got = v
		case v, ok := <-_prt.RecvIf(_prt0, 1, _prt2):
//line in.go:12
   _prt.SelectDone(_prt0)
					if !ok {
				return -1
			}
			got = v
		case got = <-_prt.RecvIf(_prt0, 2, _prt3):
//line in.go:17
   _prt.SelectDone(_prt0)
		case _prt.SendIf(_prt0, 3, _prt4) <- _prt5:
//line in.go:18
   _prt.SelectDone(_prt0)
		case _prt.SendIf(_prt0, 4, _prt6) <- 7:
//line in.go:19
   _prt.SelectDone(_prt0)
					got = 7
		}
//line in.go:21
 }
	return got
}

func Default(a chan int) bool {
	{
				_prt8 := a
//line in.go:26
  _prt7 := _prt.Select("in.go:26", true, _prt.RecvCase(_prt8))
//line in.go:26
  select {
		case <-_prt.RecvIf(_prt7, 0, _prt8):
//line in.go:27
   _prt.SelectDone(_prt7)
					return true
		case <-_prt.DefaultIf(_prt7):
//line in.go:29
   _prt.SelectDone(_prt7)
					return false
		}
//line in.go:31
 }
}

func Labeled(a chan int) int {
	n := 0
loop:
	for {
		{
					_prt10 := a
//line in.go:38
   _prt9 := _prt.Select("in.go:38", false, _prt.RecvCase(_prt10))
//line in.go:38
   select {
			case v := <-_prt.RecvIf(_prt9, 0, _prt10):
//line in.go:39
    _prt.SelectDone(_prt9)
						if v == 0 {
					break loop
				}
				n += v
			}
//line in.go:44
  }
	}
	return n
}

func LabeledSelect(a chan int) int {

	{
				_prt12 := a
//line in.go:51
  _prt11 := _prt.Select("in.go:51", false, _prt.RecvCase(_prt12))
//line in.go:50
 sel:
		select {
		case v := <-_prt.RecvIf(_prt11, 0, _prt12):
//line in.go:52
   _prt.SelectDone(_prt11)
					if v == 0 {
				break sel
			}
			return v
		}
//line in.go:57
 }
	return 0
}

func Forever() int {
	{
//line in.go:62
  _prt.BlockForever("in.go:62")
//line in.go:62
  panic("unreachable")
//line in.go:62
 }
}

func Terminating(a chan int) int {
	{
				_prt14 := a
//line in.go:66
  _prt13 := _prt.Select("in.go:66", false, _prt.RecvCase(_prt14))
//line in.go:66
  select {
		case v := <-_prt.RecvIf(_prt13, 0, _prt14):
//line in.go:67
   _prt.SelectDone(_prt13)
					return v
		}
//line in.go:69
 }
}
