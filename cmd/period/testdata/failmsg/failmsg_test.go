package failmsg

import (
	"sync"
	"testing"

	"example.com/failmsg/check"
)

// TestLostUpdate fails when the two increments interleave; its message is
// printed as testify's assert.Equal prints one: an empty first line, the
// text on the lines below.
func TestLostUpdate(t *testing.T) {
	if got := countTwice(); got != 2 {
		t.Errorf("\n\tError Trace:\tfailmsg_test.go:12\n\tError:      \tNot equal: \n\t            \texpected: 2\n\t            \tactual  : %d\n\tTest:       \tTestLostUpdate", got)
	}
}

// TestLogThenFail logs the count before it fails: the fail is located at
// the t.Errorf (line 25), not at the t.Logf before it.
func TestLogThenFail(t *testing.T) {
	got := countTwice()
	t.Logf("counted %d", got)
	if got != 2 {
		t.Errorf("\n\tError:      \tNot equal: \n\t            \texpected: 2\n\t            \tactual  : %d", got)
	}
}

// countTwice increments a Counter from two goroutines.
func countTwice() int32 {
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
	return c.Value()
}

// TestLogThenAssert fails through an assertion package that declares its
// own TestingT (as testify's does): located at the check.Equal call (line
// 50), not at the t.Logf.
func TestLogThenAssert(t *testing.T) {
	got := countTwice()
	t.Logf("counted %d", got)
	check.Equal(t, 2, got)
}
