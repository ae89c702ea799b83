//go:build go1.21

package rt

import "testing"

// Free mode (-parallel) on the engine's hand-instrumented programs: the same
// findings as the serial engine, nothing on correct programs, and every bug
// replays serially from its file.
func TestFreeModeFindsAndReplays(t *testing.T) {
	for _, c := range []struct {
		prog, want string
		cfg        Config
	}{
		{"lost", "fail", Config{Budget: 200, NoRace: true}},
		{"abba", "deadlock", Config{Budget: 200}},
		{"ok", "", Config{Budget: 300, Continue: true}},
		{"exitduringtransit", "", Config{Budget: 10, Continue: true}},
		{"select", "fail", Config{Budget: 50}},
		{"leak", "leak", Config{Budget: 5}},
		{"dblclose", "panic", Config{Budget: 50}},
		{"time", "", Config{Budget: 5, Continue: true}},
	} {
		cfg := c.cfg
		cfg.Strategy, cfg.Seed, cfg.Parallel = "period", 1, true
		s := runChild(t, c.prog, cfg)
		if kinds(s) != c.want {
			t.Errorf("%s: want %q, got %+v after %d schedules", c.prog, c.want, s.Bugs, s.Schedules)
			continue
		}
		for _, b := range s.Bugs {
			for i := 0; i < 3; i++ {
				rs := runChild(t, c.prog, Config{Replay: b.Replay, NoRace: cfg.NoRace})
				if rs.Diverged != "" || kinds(rs) != c.want {
					t.Errorf("%s: replay %d: diverged=%q bugs=%+v", c.prog, i, rs.Diverged, rs.Bugs)
					break
				}
			}
		}
	}
}
