package idioms3

import (
	"context"
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// Queue is a generic bounded queue made of a channel.
type Queue[T any] struct{ ch chan T }

func NewQueue[T any](n int) *Queue[T] { return &Queue[T]{ch: make(chan T, n)} }

func (q *Queue[T]) Push(ctx context.Context, v T) error {
	select {
	case q.ch <- v:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (q *Queue[T]) Pop(ctx context.Context) (T, error) {
	select {
	case v := <-q.ch:
		return v, nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// TestGenericChanQueue checks that a generic channel queue shared by producers and consumers loses nothing.
func TestGenericChanQueue(t *testing.T) {
	type item struct {
		producer, seq int
	}
	q := NewQueue[item](2)
	ctx := context.Background()
	var prod, cons sync.WaitGroup
	got := make([][]int, 3)
	var mu sync.Mutex
	for p := range 3 {
		prod.Go(func() {
			for s := range 5 {
				if err := q.Push(ctx, item{p, s}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	for range 2 {
		cons.Go(func() {
			for {
				it, err := q.Pop(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				if it.producer < 0 {
					return
				}
				mu.Lock()
				got[it.producer] = append(got[it.producer], it.seq)
				mu.Unlock()
			}
		})
	}
	prod.Wait()
	for range 2 {
		q.Push(ctx, item{-1, 0})
	}
	cons.Wait()
	for p, s := range got {
		slices.Sort(s)
		if !slices.Equal(s, []int{0, 1, 2, 3, 4}) {
			t.Fatalf("producer %d: %v", p, s)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := q.Pop(cctx); err != context.Canceled {
		t.Fatalf("Pop on empty cancelled queue: %v", err)
	}
}

// versioned is a generic configuration published through atomic.Pointer.
type versioned[T any] struct {
	version int
	value   T
}

// TestGenericAtomicPointerSwap checks that concurrent Swaps hand every published version back exactly once.
func TestGenericAtomicPointerSwap(t *testing.T) {
	var cur atomic.Pointer[versioned[[]string]]
	cur.Store(&versioned[[]string]{version: 0, value: []string{"v0"}})
	const n = 8
	olds := make([]int, n)
	var wg sync.WaitGroup
	for i := 1; i <= n; i++ {
		wg.Go(func() {
			old := cur.Swap(&versioned[[]string]{version: i, value: []string{"v", string(rune('0' + i))}})
			if len(old.value) == 0 {
				t.Errorf("version %d has no value", old.version)
			}
			olds[i-1] = old.version
		})
	}
	wg.Wait()
	all := append(olds, cur.Load().version)
	slices.Sort(all)
	for i, v := range all {
		if v != i {
			t.Fatalf("versions %v", all)
		}
	}
}

// ShardedMap is a generic map split into shards, each behind its own RWMutex.
type ShardedMap[K comparable, V any] struct {
	seed   maphash.Seed
	shards [8]struct {
		mu sync.RWMutex
		m  map[K]V
	}
}

func NewShardedMap[K comparable, V any]() *ShardedMap[K, V] {
	s := &ShardedMap[K, V]{seed: maphash.MakeSeed()}
	for i := range s.shards {
		s.shards[i].m = make(map[K]V)
	}
	return s
}

func (s *ShardedMap[K, V]) shard(k K) int { return int(maphash.Comparable(s.seed, k) % 8) }

func (s *ShardedMap[K, V]) Store(k K, v V) {
	sh := &s.shards[s.shard(k)]
	sh.mu.Lock()
	sh.m[k] = v
	sh.mu.Unlock()
}

func (s *ShardedMap[K, V]) Load(k K) (V, bool) {
	sh := &s.shards[s.shard(k)]
	sh.mu.RLock()
	defer sh.mu.RUnlock()
	v, ok := sh.m[k]
	return v, ok
}

func (s *ShardedMap[K, V]) Len() int {
	n := 0
	for i := range s.shards {
		s.shards[i].mu.RLock()
		n += len(s.shards[i].m)
		s.shards[i].mu.RUnlock()
	}
	return n
}

// TestGenericShardedMap checks a generic sharded map under concurrent writers and readers.
func TestGenericShardedMap(t *testing.T) {
	type key struct {
		w, i int
	}
	m := NewShardedMap[key, int]()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 25 {
				m.Store(key{w, i}, w*100+i)
				if v, ok := m.Load(key{w, i}); !ok || v != w*100+i {
					t.Errorf("Load(%d,%d) = %d %v", w, i, v, ok)
				}
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			if n := m.Len(); n > 100 {
				t.Errorf("Len %d", n)
			}
		}
	})
	wg.Wait()
	if n := m.Len(); n != 100 {
		t.Fatalf("Len = %d", n)
	}
}
