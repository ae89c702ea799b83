package ordering

import (
	"sync"
	"sync/atomic"
	"testing"
)

var (
	result int
	err    error
	active int32
	hits   atomic.Int64
	seen   = map[string]int{}
	cache  sync.Map
)

func get() (int, error) { return 1, nil }

func Ordering(ch chan int, a []int, i int) {
	result = <-ch
	result, err = get()
	seen["k"] = <-ch
	a[i] = <-ch
	var ok bool
	result, ok = <-ch
	_ = ok
	result = result + <-ch // not hoisted: a binary expression
	if result = <-ch; result > 0 {
		return
	}
}

func Deferred() {
	atomic.AddInt32(&active, 1)
	defer atomic.AddInt32(&active, -1)
	defer hits.Add(1)
	defer cache.Delete("k")
	go atomic.AddInt32(&active, 2)
	go hits.Store(3)
}

func TestSub(t *testing.T) {
	t.Run("a", func(t *testing.T) {
		result = 1
	})
}
