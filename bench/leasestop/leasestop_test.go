package leasestop

import (
	"testing"
	"time"
)

func run(t *testing.T, release func(*Lease)) {
	l := &Lease{}
	l.Acquire(10 * time.Microsecond)
	release(l)
	if l.Held() {
		t.Fatal("lease held after Release")
	}
}

// Bug: the lease expires (its callback starts) just before Release stops
// the timer.
// period:want deadlock
func TestLeaseBuggy(t *testing.T) { run(t, (*Lease).Release) }

// period:want none
func TestLeaseFixed(t *testing.T) { run(t, (*Lease).ReleaseFixed) }
