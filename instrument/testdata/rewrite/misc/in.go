package misc

import (
	"bytes"
	"sync"
	"time"
	"unsafe"
)

type Stack[T any] struct {
	mu    sync.Mutex
	items []T
}

func (s *Stack[T]) Push(v T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = append(s.items, v)
}

func Pop[T any](s *Stack[T]) (T, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

func Set[M ~map[string]int](m M) { m["a"] = 1 }

func Zero[T any](p *T) { *p = *new(T) }

type Named chan float64

type RW interface {
	sync.Locker
	RLock()
	RUnlock()
}

type iface interface{ M() int }

var (
	hook  = func() {}
	count int
	gbuf  bytes.Buffer
	garr  [4]int
	locks [4]sync.Mutex
	any1  iface
	start = time.Now()
	init1 = func() int { return <-make(chan int, 1) }
)

type holder struct{ mu sync.Mutex }

func Misc(ch chan int, chch chan chan int, n Named, rw RW, m map[string]*holder, i int) (int, int) {
	go hook()
	go Pop(&Stack[int]{})
	n <- 1
	select {
	case n <- 2:
	case ch <- <-ch:
	case (<-chch) <- 3:
		go func() { count++ }()
	}
	f := float64(count)
	_ = f
	for k := range count {
		_ = k
	}
	switch {
	case <-ch == 1:
	}
	if v := <-ch; v > 0 {
		goto end
	}
	_ = map[int]int{count: count}
	_ = garr[:]
	gbuf.Reset()
	_ = cap(gbuf.Bytes()) + len(ch)
	rw.Lock()
	rw.Unlock()
	locks[i].Lock()
	locks[i].Unlock()
	m["k"].mu.Lock()
	m["k"].mu.Unlock()
	_ = unsafe.Sizeof(garr)
	_ = any1.M()
	for t := range time.Tick(time.Second) {
		_ = t
		break
	}
	ch <- func() int { count--; return count }()
	close(chan<- int(ch))
end:
	return <-ch, <-ch
}
