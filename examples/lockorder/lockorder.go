// Package lockorder transfers money between accounts, each guarded by its own mutex.
package lockorder

import "sync"

// Account is a balance guarded by its own lock.
type Account struct {
	ID      int
	mu      sync.Mutex
	balance int
}

// NewAccount returns an account holding balance.
func NewAccount(id, balance int) *Account { return &Account{ID: id, balance: balance} }

// Balance reads the balance under the account's lock.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Transfer locks the source and then the destination. Two opposite transfers
// can each hold their first lock and wait for the other's: AB-BA deadlock.
func Transfer(from, to *Account, amount int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}

// TransferOrdered always locks the account with the smaller ID first, so no
// cycle of waiting goroutines can form.
func TransferOrdered(from, to *Account, amount int) {
	first, second := from, to
	if second.ID < first.ID {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}
