package main

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/period-dev/period/strategy"
)

// Every strategy, on a real program: it finds the lock-order deadlock, stays
// quiet on the correct twin, gives the same result twice for one seed, and
// its failure replays. The examples test covers the default strategy on
// every example; this one covers every strategy on one.
func TestEveryStrategyOnARealProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores an example once per strategy")
	}
	dir, _ := filepath.Abs("../../examples/lockorder")
	for _, name := range strategy.Names() {
		t.Run(name, func(t *testing.T) {
			explore := func() map[string][]string {
				code, sums, stderr := periodJSON(t, "test", "-json", "-strategy", name, "-seed", "7", "-budget", "300", "-o", t.TempDir(), dir)
				if code != 1 {
					t.Fatalf("exit %d, want 1 (a bug): %s", code, stderr)
				}
				got := map[string][]string{}
				for test, s := range sums {
					for _, b := range s.Bugs {
						got[test] = append(got[test], fmt.Sprintf("%s@%s#%d", b.Kind, b.Location, b.Schedule))
						if test == "TestTransfer" && b.Kind == "deadlock" {
							checkReplay(t, b.Replay, "deadlock")
						}
					}
				}
				return got
			}
			first := explore()
			if len(first["TestTransferFixed"]) > 0 {
				t.Errorf("correct twin reported %v", first["TestTransferFixed"])
			}
			if !strings.Contains(strings.Join(first["TestTransfer"], " "), "deadlock@") {
				t.Fatalf("deadlock not found: %v", first)
			}
			if again := explore(); !reflect.DeepEqual(first, again) {
				t.Errorf("same seed, different findings: %v then %v", first, again)
			}
		})
	}
}
