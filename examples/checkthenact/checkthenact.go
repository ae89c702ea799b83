// Package checkthenact withdraws money from a shared wallet.
package checkthenact

import "sync"

// Wallet holds a balance guarded by a mutex.
type Wallet struct {
	mu      sync.Mutex
	balance int
}

// NewWallet returns a wallet holding balance.
func NewWallet(balance int) *Wallet { return &Wallet{balance: balance} }

// Balance reads the balance.
func (w *Wallet) Balance() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.balance
}

// Withdraw checks the balance and debits it in two separate critical
// sections: another withdrawal can pass the same check in between.
func (w *Wallet) Withdraw(amount int) bool {
	if w.Balance() < amount {
		return false
	}
	w.mu.Lock()
	w.balance -= amount
	w.mu.Unlock()
	return true
}

// WithdrawFixed checks and debits in one critical section.
func (w *Wallet) WithdrawFixed(amount int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.balance < amount {
		return false
	}
	w.balance -= amount
	return true
}
