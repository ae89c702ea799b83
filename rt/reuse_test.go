//go:build go1.21

package rt

import (
	"runtime"
	"testing"

	"github.com/period-dev/period/strategy"
)

// siteCounter is alternate that counts the key points offered at one site.
type siteCounter struct {
	alternate
	site string
	n    int
}

func (s *siteCounter) Next(en []strategy.Event) int {
	for _, e := range en {
		if e.Site == s.site {
			s.n++
		}
	}
	return s.alternate.Next(en)
}

var reuseSink []*[4]int64

// TestCollectedAddressesAreNotShared: memory one goroutine touched and
// dropped, collected by the runtime on its own, is given to new objects
// that another goroutine touches first. Those are its own, never key
// points: the sharing records keep what they describe alive. Before, a
// fresh object at a reused address looked shared, and where the collector
// ran differs between processes (replays diverged).
func TestCollectedAddressesAreNotShared(t *testing.T) {
	const n = 20000
	st := &siteCounter{site: "fresh"}
	runControlledWith(Config{NoRace: true}, st, func() {
		done := make(chan bool)
		// fill starts a goroutine that writes n new objects at site and
		// drops them, and waits for it.
		fill := func(site string) {
			Go("go "+site, func() {
				for i := 0; i < n; i++ {
					o := new([4]int64)
					*W(site, &o[0]) = 1
					reuseSink = append(reuseSink, o)
				}
				reuseSink = nil
				Send("done", done, true)
			})
			Recv("wait", done)
		}
		fill("old")
		runtime.GC() // the collector, not the program: rt.GC is not called
		runtime.GC()
		fill("fresh")
	})
	if st.n != 0 {
		t.Errorf("%d writes to fresh objects were key points; want none", st.n)
	}
}
