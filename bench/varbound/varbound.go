// Package varbound holds the small programs of Figures 1-4 and 8-10 of the
// variable- and thread-bounding paper
// (/work/shared/seeds/variable-and-thread-bounding.txt). Each bug is
// characterised by c (preemptions), v (distinct variables preempted on) and,
// for Figures 8-10, t (threads that must be ordered). a and b are plain
// shared variables; tN are thread-local.
package varbound

var a, b int

// Reset sets a = b = 0.
func Reset() { a, b = 0, 0 }

// Inc is a++ (Figures 1, 8, 9, 10).
func Inc() { a++ }

// IncB is b++ (Figure 10).
func IncB() { b++ }

// Fig1T1 asserts a == 0.
func Fig1T1(fail func(string)) {
	if a != 0 {
		fail("fig1: a != 0")
	}
}

// ReadTwice reads a twice and asserts it did not change (Figures 2, 3).
func ReadTwice(fail func(string)) {
	t1 := a
	t2 := a
	if t1 != t2 {
		fail("read a twice, got different values")
	}
}

// Fig3T2 sets a to 1 and back to 0.
func Fig3T2() {
	a = 1
	a = 0
}

// Fig4T1 reads a twice and then b.
func Fig4T1(fail func(string)) {
	t1 := a
	t2 := a
	t3 := b
	if !(t1 == t2 || t3 != 1) {
		fail("fig4: a changed and b == 1")
	}
}

// Fig4T2 writes a, then pulses b.
func Fig4T2() {
	a = 1
	b = 1
	b = 0
}

// Fig8T3 asserts a != 2.
func Fig8T3(fail func(string)) {
	if a == 2 {
		fail("fig8: a == 2")
	}
}

// Fig9T1 reads a twice and asserts it grew by at most one. The paper prints
// ASSERT(t1 <= t2+1), which cannot fail since a only grows; the intended
// check (c=1, v=1, t=3) is t2 <= t1+1.
func Fig9T1(fail func(string)) {
	t1 := a
	t2 := a
	if t2 > t1+1 {
		fail("fig9: a grew by two between reads")
	}
}

// Fig10T1 reads a twice and b twice; it fails only if both changed.
func Fig10T1(fail func(string)) {
	t1 := a
	t2 := a
	t3 := b
	t4 := b
	if !(t1 == t2 || t3 == t4) {
		fail("fig10: both a and b changed between reads")
	}
}
