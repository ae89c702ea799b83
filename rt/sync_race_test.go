//go:build go1.21

package rt

import (
	"sync"
	"testing"
)

// More race twins (run by TestRaceDetectionTwins).
func init() {
	more := map[string]struct {
		racy bool
		body func(t *testing.T)
	}{
		// A reader that has already left (RUnlock) before the writer's Lock
		// happens before the writer: no race.
		"rwmutex-reader-left-before-writer": {false, func(t *testing.T) {
			x := new(int)
			var mu sync.RWMutex
			done := make(chan bool, 1)
			Go("go", func() {
				RLock("rl", &mu)
				_ = *R("child.read", x)
				RUnlock("ru", &mu)
				Send("done", done, true)
			})
			RWLock("l", &mu)
			*W("parent.write", x) = 2
			RWUnlock("u", &mu)
			Recv("wait", done)
		}},
	}
	for name, tw := range more {
		raceTwins[name] = tw
		programs["race-"+name] = tw.body
	}
}
