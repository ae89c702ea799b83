package lockorder

import (
	"sync"
	"testing"
)

func run(t *testing.T, transfer func(from, to *Account, amount int)) {
	a, b := NewAccount(1, 100), NewAccount(2, 100)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); transfer(a, b, 10) }()
	go func() { defer wg.Done(); transfer(b, a, 20) }()
	wg.Wait()
	if got := a.Balance() + b.Balance(); got != 200 {
		t.Fatalf("money not conserved: total %d", got)
	}
}

// Bug: AB-BA lock order. Interleaving: g1 locks a, g2 locks b, g1 waits for b, g2 waits for a.
// period:want deadlock
func TestTransfer(t *testing.T) { run(t, Transfer) }

// period:want none
func TestTransferFixed(t *testing.T) { run(t, TransferOrdered) }
