package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/period-dev/period/internal/report"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A long build or preparation prints progress lines while it lasts, and
// none after it ended.
func TestHeartbeatWhileBuilding(t *testing.T) {
	defer func(d time.Duration) { heartbeatEvery = d }(heartbeatEvery)
	heartbeatEvery = time.Millisecond
	var out lockedBuffer
	p := &report.Printer{W: &out, JSON: true}
	stop := heartbeat(p, "example.com/big", "building example.com/big")
	for !strings.Contains(out.String(), "\n") {
		time.Sleep(time.Millisecond)
	}
	stop()
	n := strings.Count(out.String(), "\n")
	time.Sleep(10 * heartbeatEvery)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != n {
		t.Errorf("%d lines after stop, %d before", len(lines), n)
	}
	var ev struct{ Action, Package, Output string }
	if err := json.Unmarshal([]byte(lines[0]), &ev); err != nil || ev.Action != "progress" || ev.Package != "example.com/big" || !strings.Contains(ev.Output, "building example.com/big") {
		t.Errorf("progress line %q (%v), want a progress event about the build", lines[0], err)
	}
}
