package notes

import (
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

func Notes(cases []reflect.SelectCase, v reflect.Value, n *atomic.Int32) {
	send := v.Send      // note: method value reflect.Value.Send
	sleep := time.Sleep // controlled: a closure over the hook
	_ = send
	sleep(1)
	load := n.Load // note: method value sync/atomic.Int32.Load
	_ = load
}

func Unsafe(p unsafe.Pointer) {
	ch := *(*chan int)(p) // note: channel reached through unsafe.Pointer
	ch <- 1
}

func NoNote[S ~[]int](s S) {
	for range s {
	}
}

var _ sync.Mutex
