package failmsg

import (
	"sync"
	"testing"
)

// TestLostUpdate fails when the two increments interleave; its message is
// printed as testify's assert.Equal prints one: an empty first line, the
// text on the lines below.
func TestLostUpdate(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	if got := c.Value(); got != 2 {
		t.Errorf("\n\tError Trace:\tfailmsg_test.go:22\n\tError:      \tNot equal: \n\t            \texpected: 2\n\t            \tactual  : %d\n\tTest:       \tTestLostUpdate", got)
	}
}

// TestLogThenFail logs the count before it fails: the fail is located at
// the t.Errorf (line 43), not at the t.Logf before it.
func TestLogThenFail(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	got := c.Value()
	t.Logf("counted %d", got)
	if got != 2 {
		t.Errorf("\n\tError:      \tNot equal: \n\t            \texpected: 2\n\t            \tactual  : %d", got)
	}
}
