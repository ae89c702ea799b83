package imports

import (
	"runtime"
	rd "runtime/debug"
	"sync/atomic"
	t "time"
)

var n int32

func Only() {
	t.Sleep(1)
	atomic.AddInt32(&n, 1)
	runtime.Gosched()
}

// Stacks lists goroutines as go test would show them.
func Stacks() []byte {
	buf := make([]byte, 1<<16)
	n := runtime.Stack(buf, true)
	return append(buf[:n], rd.Stack()...)
}
