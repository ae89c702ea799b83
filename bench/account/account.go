// Package account renders SCTBench CS/account_bad.c (mc-imperial/sctbench) in
// Go: a checker asserts the final balance assuming a wrong order of deposit
// and withdrawal; it fails whenever it runs after both.
package account

import "sync"

var (
	m                         *sync.Mutex
	x, y, z, balance          int
	depositDone, withdrawDone bool
)

// Reset restores the state main() sets up before creating the threads.
func Reset() {
	m = new(sync.Mutex)
	x, y, z = 1, 2, 4
	balance = x
	depositDone, withdrawDone = false, false
}

// Deposit adds y.
func Deposit() {
	m.Lock()
	balance = balance + y
	depositDone = true
	m.Unlock()
}

// Withdraw subtracts z.
func Withdraw() {
	m.Lock()
	balance = balance - z
	withdrawDone = true
	m.Unlock()
}

// CheckResult asserts a wrong formula (x - y - z) once both operations ran.
func CheckResult(fail func(string)) {
	m.Lock()
	if depositDone && withdrawDone && balance != (x-y)-z {
		fail("account: balance != (x - y) - z")
	}
	m.Unlock()
}
