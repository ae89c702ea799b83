package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A deadlock's Location is where the waits close (the subscriber waiting for
// the lock that the blocked refresher holds), not the test goroutine waiting
// for both in wg.Wait, and the report starts with that wait.
func TestDeadlockLocationIsTheCause(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a program")
	}
	dir, _ := filepath.Abs("testdata/deadlockcause")
	_, sums, stderr := periodJSON(t, "test", "-json", "-o", t.TempDir(), dir)
	bugs := sums["TestRefreshSubscribe"].Bugs
	if len(bugs) != 1 || bugs[0].Kind != "deadlock" {
		t.Fatalf("want one deadlock, got %+v\n%s", bugs, stderr)
	}
	b := bugs[0]
	if b.Location != "cache.go:26" || b.Created != "cache_test.go:14" {
		t.Errorf("Location %s (created at %s), want cache.go:26 (the Lock in Subscribe, created at cache_test.go:14)", b.Location, b.Created)
	}
	want := "all goroutines are blocked:\n  waiting for a lock or channel that another blocked goroutine holds or serves:\n" +
		"    goroutine g0.2 blocked on lock at cache.go:26 waits for the lock goroutine g0.1 holds (locked at cache.go:18), itself blocked on send at cache.go:21\n"
	if !strings.HasPrefix(b.Message, want) {
		t.Errorf("report does not start with the wait:\n%s\nwant prefix:\n%s", b.Message, want)
	}
	if !strings.Contains(b.Message, "; holds the lock locked at cache.go:18") {
		t.Errorf("report does not say who holds the lock:\n%s", b.Message)
	}
}
