package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/period-dev/period/internal/report"
)

// firstWrite tells when it was first written to.
type firstWrite struct {
	w    io.Writer
	once sync.Once
	done chan struct{}
}

func (f *firstWrite) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	f.once.Do(func() { close(f.done) })
	return n, err
}

// A long build or preparation prints progress lines while it lasts, and
// none after it ended.
func TestHeartbeatWhileBuilding(t *testing.T) {
	defer func(d time.Duration) { heartbeatEvery = d }(heartbeatEvery)
	heartbeatEvery = time.Millisecond
	var out bytes.Buffer
	first := &firstWrite{w: &out, done: make(chan struct{})}
	p := &report.Printer{W: &report.LockedWriter{W: first}, JSON: true}
	stop := heartbeat(p, "example.com/big", "building example.com/big")
	<-first.done
	stop() // no write after it returns: out is read without a lock
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
