//go:build go1.22

package rt

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"github.com/period-dev/period/strategy"
)

// The shared, copy-on-write clocks behave as plain dense vectors under any
// sequence of clones, joins and ticks: writing one never changes another.
func TestVectorClocksAgreeWithDenseVectors(t *testing.T) {
	for _, c := range []struct{ n, gids, ops int }{{12, 40, 20000}, {6, 400, 20000}, {30, 2000, 10000}} {
		agreeWithDenseVectors(t, c.n, c.gids, c.ops)
	}
}

func agreeWithDenseVectors(t *testing.T, n, gids, ops int) {
	r := rand.New(rand.NewPCG(uint64(n), uint64(gids)))
	clocks := make([]vc, n)
	model := make([][]uint32, n)
	for i := range model {
		model[i] = make([]uint32, gids)
	}
	for op := 0; op < ops; op++ {
		a, b := r.IntN(n), r.IntN(n)
		switch r.IntN(5) {
		case 0:
			g := strategy.GID(r.IntN(gids))
			if r.IntN(2) == 0 {
				g = strategy.GID(a) // a goroutine ticks its own entry most
			}
			clocks[a].tick(g)
			model[a][g]++
		case 4:
			clocks[a].publish(&clocks[b])
			for g := range model[a] {
				model[a][g] = max(model[a][g], model[b][g])
			}
		case 1:
			clocks[a].join(clocks[b])
			for g := range model[a] {
				model[a][g] = max(model[a][g], model[b][g])
			}
		case 2:
			clocks[a] = clocks[b].clone()
			model[a] = append([]uint32(nil), model[b]...)
		case 3:
			if r.IntN(10) == 0 {
				clocks[a], model[a] = vc{}, make([]uint32, gids)
			}
		}
		if op%7 != 0 && gids > 100 {
			continue // the big cases are checked every few operations
		}
		for i := range clocks {
			for g := range gids {
				if got, want := clocks[i].get(strategy.GID(g)), model[i][g]; got != want {
					t.Fatalf("op %d: clock %d entry %d = %d, want %d", op, i, g, got, want)
				}
			}
		}
	}
}

// A parent whose clock has many entries starts many goroutines that each
// tick their own entry: the clones share the parent's entries, so the
// memory is linear in the goroutines, not quadratic.
func TestClonesShareTheirParentsClock(t *testing.T) {
	const kids = 10000
	var parent vc
	for g := range strategy.GID(kids) {
		parent.tick(g) // as after waiting for kids goroutines
	}
	children := make([]vc, kids)
	total := 0
	for i := range children {
		children[i] = parent.clone()
		parent.tick(0)
		children[i].tick(strategy.GID(kids + i))
		children[i].tick(strategy.GID(kids + i))
	}
	for _, c := range children {
		total += c.entries()
	}
	if total > 4*kids {
		t.Errorf("%d clones hold %d entries of their own, want at most %d", kids, total, 4*kids)
	}
	if got := children[kids-1].get(strategy.GID(kids - 1)); got != 1 {
		t.Errorf("a clone lost its parent's entry: %d, want 1", got)
	}
	if got := parent.get(0); got != kids+1 {
		t.Errorf("the parent's own entry is %d, want %d", got, kids+1)
	}
}

// Clocks passed along common patterns are joined without a pass over every
// goroutine ever started: goroutines that take a mutex one after another
// share the previous holder's clock (adopt), and receivers of a publisher
// that waits for its senders between publishes join what changed (delta).
// Counted, not timed: a pass is linear in the goroutines, so a pass per
// operation made these runs quadratic.
func TestClockJoinsAvoidFullPasses(t *testing.T) {
	const n = 2000
	passes := func(body func()) int64 {
		before := vcFullPasses.Load()
		runControlledWith(Config{}, &alternate{}, body)
		return vcFullPasses.Load() - before
	}
	locks := passes(func() {
		var mu sync.Mutex
		var wg sync.WaitGroup
		WGAdd("add", &wg, n)
		for i := 0; i < n; i++ {
			Go("locker", func() {
				Lock("lock", &mu)
				Unlock("unlock", &mu)
				WGDone("done", &wg)
			})
		}
		WGWait("wait", &wg)
	})
	if locks > n/4 {
		t.Errorf("%d goroutines taking a mutex: %d passes over whole clocks, want at most %d", n, locks, n/4)
	}
	const subs, publishes, senders = 20, 100, 20
	recvs := passes(func() {
		chans := make([]chan int, subs)
		var got sync.WaitGroup
		WGAdd("add", &got, subs)
		for i := range chans {
			chans[i] = make(chan int, publishes)
			ch := chans[i]
			Go("subscriber", func() {
				for range publishes * senders / subs {
					Recv("receive", ch)
				}
				WGDone("done", &got)
			})
		}
		for p := 0; p < publishes; p++ {
			var wg sync.WaitGroup
			WGAdd("add", &wg, senders)
			for k := 0; k < senders; k++ {
				ch := chans[k]
				Go("sender", func() {
					Send("send", ch, p)
					WGDone("sent", &wg)
				})
			}
			WGWait("wait", &wg)
		}
		WGWait("received", &got)
	})
	if recvs > publishes*3 {
		t.Errorf("%d receives of %d publishes: %d passes over whole clocks, want at most %d", publishes*senders, publishes, recvs, publishes*3)
	}
}

// A goroutine started per iteration after the previous one ended and was
// received from (testify's EventuallyWithT: one per tick) takes the slot of
// an ended one: clocks stay as wide as the goroutines alive at once. Each
// start copied its parent's clock, as wide as all goroutines started so
// far: 100,000 of them took minutes a schedule.
func TestSlotsReusedAfterGoroutinesEnd(t *testing.T) {
	const n = 2000
	runControlledWith(Config{}, &alternate{}, func() {
		ch := make(chan int)
		for i := 0; i < n; i++ {
			Go("tick", func() { Send("result", ch, i) })
			Recv("collect", ch)
			Gosched("yield") // the sender ends
		}
	})
	if got := eng.race.slots; got > 10 {
		t.Errorf("%d goroutines started one after another took %d slots, want at most 10", n, got)
	}
	// Not covered: the parent never synchronised with the ended ones,
	// which accessed memory (one that did nothing could give its slot).
	runControlledWith(Config{}, &alternate{}, func() {
		for i := 0; i < 50; i++ {
			Go("tick", func() { *W("w", escaped(new(int))) = 1 })
			Gosched("yield")
		}
	})
	if got := eng.race.slots; got != 51 {
		t.Errorf("50 goroutines the parent never waited for took %d slots, want 51 (one each, and the root's)", got)
	}
	// Covered up to the send only: the write after it races with the next
	// goroutine's, which must not take the slot (the detector skips pairs
	// of one slot).
	runControlledWith(Config{}, &alternate{}, func() {
		x := new(int)
		ch := make(chan int)
		for i := 0; i < 20; i++ {
			Go("tick", func() { Send("result", ch, i); *W("late.write", x) = i })
			Recv("collect", ch)
			Gosched("yield")
			Gosched("yield")
		}
	})
	if len(eng.bugs) == 0 || eng.bugs[0].kind != "race" {
		t.Errorf("writes after a send, each by a new goroutine: %+v, want a race", eng.bugs)
	}
}

// A clock's entries over its dense part are never a block of the tiny
// allocator (under 16 bytes, without pointers): such a block holds small
// objects of the program too, and a clock kept for the run kept them from
// being collected (yuin/gopher-lua's TestLocalVarFree: a finalizer on a
// one-byte struct never ran).
func TestClockEntriesAvoidTinyBlocks(t *testing.T) {
	var v vc
	v.set(3, 1)
	c := v.clone()
	for _, over := range [][]vcEntry{v.over, c.over} {
		if size := cap(over) * int(unsafe.Sizeof(vcEntry{})); len(over) > 0 && size < 16 {
			t.Errorf("entries over the dense part: a block of %d bytes", size)
		}
	}
}

// The records of the addresses a run touched are bounded (maxAddrs): an
// interpreter's test touched 25 million addresses in a schedule and held
// 1.5 GB of them.
func TestAddressRecordsBounded(t *testing.T) {
	mem := make([]int64, maxAddrs+maxAddrs/2)
	runControlledWith(Config{NoRace: true}, &alternate{}, func() {
		done := make(chan bool)
		Go("other", func() { Send("done", done, true) }) // not alone: every access is recorded
		Recv("wait", done)
		for i := range mem {
			*W("w", &mem[i]) = 1
		}
	})
	if n := len(eng.mem.lines); n > maxAddrs || eng.mem.ninfo > maxAddrs || int(eng.mem.nlines) > n {
		t.Errorf("%d addresses touched: %d lines kept (%d lines taken, %d infos), want at most %d", len(mem), n, eng.mem.nlines, eng.mem.ninfo, maxAddrs)
	}
	if eng.mem.ninfo == 0 {
		t.Errorf("no address recorded: the test shows nothing")
	}
}

// runtime.ReadMemStats under control leaves out the heap of Period's
// records of the run's accesses, not the program's own: a test bounding
// its heap (gopher-lua's 40 MB) sees its use, as under go test.
func TestReadMemStatsWithoutOwnRecords(t *testing.T) {
	mem := make([]int64, 500_000)
	var raw, adj runtime.MemStats
	runControlledWith(Config{}, &alternate{}, func() {
		done := make(chan bool)
		Go("other", func() { Send("done", done, true) })
		Recv("wait", done)
		for i := range mem {
			*W("w", &mem[i]) = 1
		}
		runtime.ReadMemStats(&raw)
		ReadMemStats(&adj)
	})
	own := raw.HeapAlloc - adj.HeapAlloc
	if own < 8*uint64(len(mem)) {
		t.Errorf("HeapAlloc %d raw, %d without Period's records: want their tens of MB left out", raw.HeapAlloc, adj.HeapAlloc)
	}
	if adj.HeapAlloc < 8*uint64(len(mem)) {
		t.Errorf("HeapAlloc %d without Period's records, below the program's own %d bytes", adj.HeapAlloc, 8*len(mem))
	}
	t.Logf("raw %d MB, adjusted %d MB", raw.HeapAlloc>>20, adj.HeapAlloc>>20)
}
