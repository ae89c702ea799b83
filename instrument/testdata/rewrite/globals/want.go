//line in.go:1
// rewrite: globals
package globals

import "sync"
//line in.go:4
import _prt "github.com/period-dev/period/rt"
//line in.go:4
import _prtreflect "reflect"

var (
	a, b = 1, "x"
	_    = 3
	mu   sync.Mutex
	reg  = struct {
		sync.Mutex
		m map[string]int
	}{m: map[string]int{}}
)

var c []int

func Touch() int { return *_prt.R("in.go:18", &a) + len(*_prt.R("in.go:18", &c)) }

//line in.go:18
var _ = _prt.Globals(func() func() {
//line in.go:18
 _prt0, _prt1, _prt2 := a, b, c
//line in.go:18
 _prt3 := _prtreflect.New(_prtreflect.TypeOf(&mu).Elem()).Elem()
//line in.go:18
 _prt3.Set(_prtreflect.ValueOf(&mu).Elem())
//line in.go:18
 _prt4 := _prtreflect.New(_prtreflect.TypeOf(&reg).Elem()).Elem()
//line in.go:18
 _prt4.Set(_prtreflect.ValueOf(&reg).Elem())
//line in.go:18
 return func() {
//line in.go:18
  a, b, c = _prt0, _prt1, _prt2
//line in.go:18
  _prtreflect.ValueOf(&mu).Elem().Set(_prt3)
//line in.go:18
  _prtreflect.ValueOf(&reg).Elem().Set(_prt4)
//line in.go:18
 }
//line in.go:18
})
