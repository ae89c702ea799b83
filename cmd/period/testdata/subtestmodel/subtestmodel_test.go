// Package subtestmodel: subtests run one at a time by t.Run are one thread
// of control with their parent; goroutines and parallel subtests are not,
// and parallel subtests run at most -test.parallel at a time.
package subtestmodel

import (
	"flag"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var table = map[string]int{}

var order []string

func record(name string) {
	order = append(order, name)
	table[name] = len(order)
}

// TestSequentialSubtests shares package state between the test and its
// subtests, one at a time: a single schedule covers it.
func TestSequentialSubtests(t *testing.T) {
	order, table = nil, map[string]int{}
	record("parent")
	for _, name := range []string{"a", "b", "c"} {
		t.Run(name, func(t *testing.T) {
			record(name)
			t.Run("inner", func(t *testing.T) { record(name + "/inner") })
			if table[name] == 0 {
				t.Fatalf("%s not recorded", name)
			}
		})
	}
	record("end")
	if len(order) != 8 || table["end"] != 8 {
		t.Fatalf("order %v", order)
	}
}

var hits int

// TestSubtestGoroutineRace: a subtest's goroutine writes what the subtest
// reads without waiting: a race after the subtests before it ran alone.
func TestSubtestGoroutineRace(t *testing.T) {
	hits = 0
	t.Run("alone", func(t *testing.T) { hits++ })
	t.Run("racy", func(t *testing.T) {
		done := make(chan bool)
		go func() {
			hits++
			done <- true
		}()
		_ = hits
		<-done
	})
}

var config int

// TestSubtestGoroutineOrdered: a value set by an earlier subtest is read by
// a later subtest's goroutine, ordered by its go statement: no verdict.
func TestSubtestGoroutineOrdered(t *testing.T) {
	t.Run("set", func(t *testing.T) { config = 5 })
	t.Run("use", func(t *testing.T) {
		var wg sync.WaitGroup
		got := 0
		wg.Add(1)
		go func() {
			defer wg.Done()
			got = config
		}()
		wg.Wait()
		if got != 5 {
			t.Fatalf("config %d", got)
		}
	})
}

var total int

// TestParallelSubtestsRace: parallel subtests add to a package variable
// without a lock, after a sequential one set it alone.
func TestParallelSubtestsRace(t *testing.T) {
	t.Run("reset", func(t *testing.T) { total = 0 })
	t.Run("group", func(t *testing.T) {
		for _, n := range []int{1, 2} {
			t.Run("add", func(t *testing.T) {
				t.Parallel()
				total += n
			})
		}
	})
}

// TestParallelSlots: package testing runs at most -test.parallel parallel
// subtests at once (Period: at least two); the rest wait in t.Parallel.
func TestParallelSlots(t *testing.T) {
	limit, _ := strconv.Atoi(flag.Lookup("test.parallel").Value.String())
	limit = max(limit, 2)
	var running, peak atomic.Int32
	t.Run("group", func(t *testing.T) {
		for i := 0; i < 12; i++ {
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				t.Parallel()
				n := running.Add(1)
				for {
					p := peak.Load()
					if n <= p || peak.CompareAndSwap(p, n) {
						break
					}
				}
				time.Sleep(time.Millisecond)
				running.Add(-1)
			})
		}
	})
	if p := peak.Load(); p > int32(limit) || p < 1 {
		t.Fatalf("%d parallel subtests ran at once, -test.parallel allows %d", p, limit)
	}
}

// TestNestedParallelSlots: parallel subtests, each running a sequential
// subtest whose own subtests are parallel (spf13/cast's table tests).
// The sequential subtest gives its parallel parent's slot up while its
// parallel subtests run, as package testing does: with more parallel
// subtests than slots, holding them would leave the grandchildren
// waiting for ever.
func TestNestedParallelSlots(t *testing.T) {
	var ran atomic.Int32
	for i := 0; i < 5; i++ {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			t.Run("seq", func(t *testing.T) {
				for j := 0; j < 2; j++ {
					t.Run(strconv.Itoa(j), func(t *testing.T) {
						t.Parallel()
						ran.Add(1)
					})
				}
			})
		})
	}
	t.Cleanup(func() {
		if n := ran.Load(); n != 10 {
			t.Errorf("%d grandchildren ran, want 10", n)
		}
	})
}
