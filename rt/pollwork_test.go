package rt

import "testing"

// The test goroutine alone for long enough to take the access path without
// bookkeeping (soloRecordLimit) then works between non-blocking sends on a
// full channel, as jonboulle/clockwork's fake clock does when the test
// advances it past a million ticks of a ticker: the sends are polls between
// work, not a wait, or the run is called a hang after 500,000 of them.
func TestSoloWorkBetweenPollsIsWork(t *testing.T) {
	polled := -1
	runControlled(&stay{}, func() {
		now := escaped(new(int))
		for i := 0; i < soloRecordLimit+1; i++ {
			*W("warm", now) = i
		}
		if eng.soloGoid.Load() == 0 {
			t.Error("the test goroutine did not take the solo path")
		}
		full := make(chan int, 1)
		Send("fill", full, 0)
		for i := 0; i < 100; i++ {
			*W("advance", now) += 1         // the clock's time
			_ = *R("expiration", now)       // the waiter's next expiration
			*W("reschedule", now) = i       // setExpirer
			*W("pop", now) = *R("pop", now) // the waiters' list
			sel := Select("expire", true, SendCase(full))
			select {
			case SendIf(sel, 0, full) <- i:
				t.Error("sent on a full channel")
			case <-DefaultIf(sel):
			}
		}
		eng.mu.Lock()
		polled = eng.pollYields
		eng.mu.Unlock()
	})
	if polled != 0 {
		t.Errorf("%d of 100 non-blocking sends between work counted as polling, want 0", polled)
	}
}
