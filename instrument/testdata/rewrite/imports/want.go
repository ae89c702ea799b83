//line in.go:1
package imports

import (
	_ "runtime"
	"sync/atomic"
	_ "time"
)
//line in.go:7
import _prt "github.com/period-dev/period/rt"

var n int32

func Only() {
	_prt.Sleep("in.go:12", 1)
	atomic.AddInt32(_prt.Atomic("in.go:13", &n), 1)
	_prt.Gosched("in.go:14")
}
