package checkthenact

import (
	"sync"
	"testing"
)

func run(t *testing.T, fixed bool) {
	w := NewWallet(100)
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			if fixed {
				w.WithdrawFixed(80)
			} else {
				w.Withdraw(80)
			}
		}()
	}
	wg.Wait()
	if b := w.Balance(); b < 0 {
		t.Fatalf("balance went negative: %d", b)
	}
}

// Bug: check-then-act across two critical sections. Interleaving: both goroutines see
// balance 100 >= 80, then both debit: balance -60.
// period:want fail
func TestWithdraw(t *testing.T) { run(t, false) }

// period:want none
func TestWithdrawFixed(t *testing.T) { run(t, true) }
