package account

import (
	"sync"
	"testing"
)

// Bug: the checker fails when it is scheduled after both deposit and withdraw
// (threads are created checker first).
// period:want fail
func TestAccount(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); CheckResult(func(s string) { t.Error(s) }) }()
	go func() { defer wg.Done(); Deposit() }()
	go func() { defer wg.Done(); Withdraw() }()
	wg.Wait()
}
