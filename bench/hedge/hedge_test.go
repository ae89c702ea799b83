package hedge

import (
	"strings"
	"testing"
)

func run(t *testing.T, query func(string, []Replica, <-chan struct{}) (string, bool)) {
	reps := []Replica{
		func(q string) string { return "eu:" + q },
		func(q string) string { return "us:" + q },
		func(q string) string { return "ap:" + strings.ToUpper(q) },
		func(q string) string { return "sa:" + q },
	}
	giveUp := make(chan struct{})
	// the deadline watcher for the request
	go func() { close(giveUp) }()
	a, ok := query("ping", reps, giveUp)
	if ok && !strings.HasSuffix(strings.ToLower(a), "ping") {
		t.Errorf("bad answer %q", a)
	}
}

// Bug: the caller gives up before any replica answers; the replicas block
// forever on the unbuffered reply channel.
// period:want leak
func TestHedgeBuggy(t *testing.T) { run(t, QueryBuggy) }

// period:want none
func TestHedgeFixed(t *testing.T) { run(t, Query) }
