// Package addall renders the running example of the con2colic testing paper
// (/work/shared/seeds/con2colic-testing.txt), itself a variant of Java's
// Vector.addAll: v.cnt is read (under the lock) before the critical section
// that uses it, so a concurrent addAll on the same v invalidates the size
// computation. The bug needs a schedule AND an input: u.cnt must be large
// enough for the stale size to be too small.
package addall

import (
	"errors"
	"sync"
)

// Vector is a growable array: data has room for size elements, cnt are used.
type Vector struct {
	data      []int
	cnt, size int
}

// NewVector returns a vector holding elems with room for size elements.
func NewVector(size int, elems ...int) *Vector {
	v := &Vector{data: make([]int, size), size: size, cnt: len(elems)}
	copy(v.data, elems)
	return v
}

// ErrInvariant reports the paper's failed assertion v.size >= u.cnt + v.cnt.
var ErrInvariant = errors.New("addall: v.size < u.cnt + v.cnt")

var lk *sync.Mutex

// Reset allocates the global lock.
func Reset() { lk = new(sync.Mutex) }

// Len reads v.cnt under the lock (each access is race free, as in the paper).
func Len(v *Vector) int {
	lk.Lock()
	defer lk.Unlock()
	return v.cnt
}

// Elems returns a copy of v's elements.
func Elems(v *Vector) []int {
	lk.Lock()
	defer lk.Unlock()
	return append([]int(nil), v.data[:v.cnt]...)
}

// AddAll appends u's elements to v. numElem is computed before the lock is
// taken and may be stale inside it.
func AddAll(v, u *Vector) error {
	numElem := Len(v) + Len(u)
	lk.Lock()
	defer lk.Unlock()
	if numElem > v.size {
		grown := make([]int, numElem)
		copy(grown, v.data[:v.cnt])
		v.data = grown
		v.size = numElem
	}
	if v.size < u.cnt+v.cnt {
		return ErrInvariant
	}
	copy(v.data[v.cnt:], u.data[:u.cnt])
	v.cnt = v.cnt + u.cnt
	return nil
}
