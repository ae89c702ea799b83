// Package philosophers is the dining-philosophers program of PEDAL's Fig. 1
// (/work/shared/seeds/pedal-profile-directed-systematic-testing.txt): thread
// i locks fork i, then fork i+1 (mod n), eats, and unlocks in reverse order.
// If every philosopher holds its first fork, none can take its second.
package philosophers

import "sync"

// Table is n forks and a record of who ate.
type Table struct {
	forks []*sync.Mutex
	ate   []bool
}

// NewTable sets a table for n philosophers.
func NewTable(n int) *Table {
	t := &Table{forks: make([]*sync.Mutex, n), ate: make([]bool, n)}
	for i := range t.forks {
		t.forks[i] = new(sync.Mutex)
	}
	return t
}

// Dine is philosopher i's whole life: one meal.
func (t *Table) Dine(i int) {
	first, second := t.forks[i], t.forks[(i+1)%len(t.forks)]
	first.Lock()
	second.Lock()
	t.ate[i] = true // eat(); each philosopher writes only its own slot
	second.Unlock()
	first.Unlock()
}

// AllAte reports whether every philosopher ate; call it after all returned.
func (t *Table) AllAte() bool {
	for _, a := range t.ate {
		if !a {
			return false
		}
	}
	return true
}
