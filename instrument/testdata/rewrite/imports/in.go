package imports

import (
	"runtime"
	"sync/atomic"
	t "time"
)

var n int32

func Only() {
	t.Sleep(1)
	atomic.AddInt32(&n, 1)
	runtime.Gosched()
}
