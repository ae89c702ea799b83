//go:build go1.21

package rt

import (
	"flag"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/period-dev/period/trace"
)

// BatchMinimizeFile is where replayAll, minimising, writes test's shrunk
// record in dir.
func BatchMinimizeFile(dir, test string) string {
	return filepath.Join(dir, url.PathEscape(test)+".period")
}

// replayAll replays the files of Config.ReplayAll in one process, each as
// its test's one run in go test's order: the tests before and between them
// run natively, once each, as go test runs them (runFirst), and each replay
// starts from the package state they and the replays before it left. A
// package with a verdict in each of thirty tests is confirmed with one run
// of its suite, not thirty (hystrix-go's tests sleep for real: each run of
// the tests before one took 20 to 30 s). Each replay's summary goes to the
// results file as a lone replay's does; a test whose file cannot be read,
// or that comes after a test that never returned, gets none, and the runner
// confirms it alone. With Config.Minimize, each replay is a minimisation
// instead (minimizeOne), its candidates all after the tests before it.
func replayAll(t *testing.T, tests []Test, cfg Config, out *resultWriter) {
	files := map[string]string{}
	reps := map[string]*trace.Trace{}
	for _, f := range cfg.ReplayAll {
		tr, err := trace.ReadFile(f)
		if err != nil || reps[tr.Test] != nil {
			continue
		}
		reps[tr.Test], files[tr.Test] = tr, f
	}
	last := -1
	for i, tt := range tests {
		if reps[tt.Name] != nil {
			last = i
		}
	}
	if len(globals) > 0 {
		settleInit()
	}
	for _, tt := range tests[:last+1] {
		rep := reps[tt.Name]
		if rep == nil {
			if !runFirst(t, tt) {
				return
			}
			continue
		}
		// The package state as go test would leave it for this test.
		var restores []func()
		for _, snap := range globals {
			restores = append(restores, snap())
		}
		c := cfg
		c.Replay = files[tt.Name]
		c.fromReplay(rep)
		if c.Short {
			if err := flag.Set("test.short", "true"); err != nil {
				t.Fatal(err)
			}
		}
		resetPaths()
		out.write(progress{Action: "run", Test: tt.Name, Schedule: rep.Schedule})
		var s Summary
		if c.Minimize > 0 {
			// Each test's shrunk record goes to its own file in the
			// MinimizeOut directory (BatchMinimizeFile).
			c.MinimizeOut = BatchMinimizeFile(cfg.MinimizeOut, tt.Name)
			s = minimizeOne(t, tt, c, rep, restores)
		} else {
			eng.replayBug = bugWriter(out, tt.Name, rep.Schedule)
			s = replayOne(t, tt, c, rep, restores)
			eng.replayBug = nil
		}
		out.write(s)
	}
}
