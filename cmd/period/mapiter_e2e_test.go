package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// mapModule is a module whose bug depends on the order a map is ranged in:
// Sweep picks the expired sessions in map order and closes them one by one,
// racing with Logout. Go randomizes map order in every process; Period's
// rewrite ranges over maps in a fixed order, so one seed finds the bug at the
// same schedule every time and its replay never diverges.
var mapModule = map[string]string{
	"go.mod": "module example.com/mapmod\n\ngo 1.22\n",
	"sessions/sessions.go": `package sessions

import "sync"

type ID struct {
	User string
	N    int
}

type session struct {
	done    chan struct{}
	expired bool
}

type Table struct {
	mu   sync.Mutex
	byID map[ID]*session
}

func NewTable() *Table { return &Table{byID: map[ID]*session{}} }

func (t *Table) Open(id ID, expired bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.byID[id] = &session{done: make(chan struct{}), expired: expired}
}

func (t *Table) Logout(id ID) {
	t.mu.Lock()
	s, ok := t.byID[id]
	delete(t.byID, id)
	t.mu.Unlock()
	if ok {
		close(s.done)
	}
}

// Sweep picks the expired sessions under the lock, then closes them one at
// a time: a Logout in between closes a session twice.
func (t *Table) Sweep() {
	t.mu.Lock()
	var old []ID
	for id, s := range t.byID {
		if s.expired {
			old = append(old, id)
		}
	}
	t.mu.Unlock()
	for _, id := range old {
		t.mu.Lock()
		s := t.byID[id]
		t.mu.Unlock()
		if s != nil {
			close(s.done)
			t.mu.Lock()
			delete(t.byID, id)
			t.mu.Unlock()
		}
	}
}
`,
	"sessions/sessions_test.go": `package sessions

import (
	"sync"
	"testing"
)

func TestSweepAndLogout(t *testing.T) {
	tab := NewTable()
	ids := []ID{{"ann", 1}, {"bob", 2}, {"cid", 3}, {"dee", 4}, {"eve", 5}}
	for i, id := range ids {
		tab.Open(id, i%2 == 0)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); tab.Sweep() }()
	go func() {
		defer wg.Done()
		for _, id := range ids[2:] {
			tab.Logout(id)
		}
	}()
	wg.Wait()
}
`,
}

// Before the rewrite, seed 3 found the bug at schedules 8, 5, 20 and 5 in
// four runs, and 4 replays of 10 of one of its files diverged; now it is
// found at schedule 22 every time and its replay never diverges.
func TestMapRangeIsDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	dir := t.TempDir()
	for name, src := range mapModule {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkg := filepath.Join(dir, "sessions")
	var replay string
	explore := func() []string {
		code, sums, stderr := periodJSON(t, "test", "-json", "-race=false", "-seed", "3", "-budget", "2000", "-o", t.TempDir(), pkg)
		if code != 1 {
			t.Fatalf("exit %d, want 1 (a bug): %s", code, stderr)
		}
		var got []string
		for test, s := range sums {
			for _, b := range s.Bugs {
				got = append(got, fmt.Sprintf("%s %s@%s#%d %s", test, b.Kind, b.Location, b.Schedule, b.Message))
				replay = b.Replay
			}
		}
		return got
	}
	first := explore()
	if len(first) != 1 {
		t.Fatalf("want one bug, got %v", first)
	}
	t.Logf("found: %s", first[0])
	for i := 0; i < 2; i++ {
		if again := explore(); !reflect.DeepEqual(first, again) {
			t.Fatalf("same seed, different findings: %v then %v", first, again)
		}
	}
	for i := 0; i < 10; i++ {
		checkReplay(t, replay, "panic")
	}
}

// The standard library's map iterators (maps.Keys, Values, All) and
// sync.Map.Range give keys in the order ranging over a map does under
// Period, which the seed decides: their tests fail with the same message in
// every process (under go test, with another order each time), and the
// orders are permutations of the keys.
func TestStdMapIteratorsOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/maporder")
	prefix := map[string]string{
		"TestMapsKeysOrder":     "order_test.go:24: keys [",
		"TestMapsAllOrder":      "order_test.go:37: all [",
		"TestSyncMapRangeOrder": "order_test.go:53: range [",
	}
	messages := func() map[string]string {
		code, sums, stderr := periodJSON(t, "test", "-json", "-budget", "1", "-minimize=false", "-o", t.TempDir(), dir)
		if code != 1 || len(sums) != len(prefix) {
			t.Fatalf("exit %d with %d tests, want 1 and %d: %s", code, len(sums), len(prefix), stderr)
		}
		got := map[string]string{}
		for name, p := range prefix {
			if b := sums[name].Bugs; len(b) != 1 || !strings.HasPrefix(b[0].Message, p) {
				t.Fatalf("%s: %+v, want one fail %q...", name, b, p)
			} else {
				got[name] = b[0].Message
			}
		}
		return got
	}
	first, again := messages(), messages()
	if !reflect.DeepEqual(first, again) {
		t.Fatalf("two processes, two orders:\n%v\n%v", first, again)
	}
	keys := strings.TrimSuffix(strings.TrimPrefix(first["TestMapsKeysOrder"], prefix["TestMapsKeysOrder"]), "]")
	ks := strings.Fields(keys)
	slices.SortFunc(ks, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y })
	if strings.Join(ks, " ") != "0 1 2 3 4 5 6 7 8 9 10 11" {
		t.Errorf("maps.Keys gave %s, want each of the 12 keys once", keys)
	}
}
