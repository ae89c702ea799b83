//go:build go1.21

package rt

import (
	"sync"
	"testing"

	"github.com/period-dev/period/strategy"
)

// Race detection overhead: the same scheduling points and shared accesses
// with detection on and off (docs/race.md has numbers and the command).

func runControlledRace(st strategy.Strategy, race bool, body func()) {
	runControlledWith(Config{NoRace: !race}, st, body)
}

func onOff(b *testing.B, f func(b *testing.B, race bool)) {
	b.Run("race=off", func(b *testing.B) { f(b, false) })
	b.Run("race=on", func(b *testing.B) { f(b, true) })
}

// BenchmarkRaceSharedAccess: a write to a shared variable, a key point that
// switches goroutines (ns/op = per access).
func BenchmarkRaceSharedAccess(b *testing.B) {
	onOff(b, func(b *testing.B, race bool) {
		x := new(int)
		runControlledRace(&alternate{}, race, pingPong(b.N, func() { *W("w", x)++ }))
	})
}

// BenchmarkRaceSharedAccessNoSwitch: the same access, the same goroutine goes on.
func BenchmarkRaceSharedAccessNoSwitch(b *testing.B) {
	onOff(b, func(b *testing.B, race bool) {
		x := new(int)
		runControlledRace(&stay{}, race, pingPong(b.N, func() { *W("w", x)++ }))
	})
}

// BenchmarkRaceLocalAccess: an access to a goroutine-local variable (no key
// point; only the race check when detection is on).
func BenchmarkRaceLocalAccess(b *testing.B) {
	onOff(b, func(b *testing.B, race bool) {
		runControlledRace(&stay{}, race, func() {
			x := escaped(new(int)) // on the heap, as a variable another goroutine may reach
			for i := 0; i < b.N; i++ {
				*W("local", x)++
			}
		})
	})
}

// BenchmarkStackAccess: an access to a variable on the goroutine's own
// stack, which only the hooks' address-taking used to move to the heap:
// counted, not recorded.
func BenchmarkStackAccess(b *testing.B) {
	runControlledRace(&stay{}, true, func() {
		var x int
		for i := 0; i < b.N; i++ {
			*W("stack", &x)++
		}
	})
}

// BenchmarkRaceLockedAccess: Lock, shared read and write, Unlock (the
// mutex edges are vector-clock joins when detection is on).
func BenchmarkRaceLockedAccess(b *testing.B) {
	onOff(b, func(b *testing.B, race bool) {
		x := new(int)
		var mu sync.Mutex
		runControlledRace(&alternate{}, race, pingPong(b.N, func() {
			Lock("l", &mu)
			*W("w", x) = *R("r", x) + 1
			Unlock("u", &mu)
		}))
	})
}

// BenchmarkRaceSwitch: a scheduling point without memory access (Gosched).
func BenchmarkRaceSwitch(b *testing.B) {
	onOff(b, func(b *testing.B, race bool) {
		runControlledRace(&alternate{}, race, pingPong(b.N, func() { Gosched("yield") }))
	})
}

// BenchmarkLocalAccessFresh: accesses to goroutine-local memory at fresh
// addresses, as a parser filling new buffers makes them (no key point; each
// address is looked up and recorded once). ns/op = per access. The test
// goroutine alone takes the solo path; beside another goroutine, every
// access is recorded.
func BenchmarkLocalAccessFresh(b *testing.B) {
	b.Run("solo", func(b *testing.B) { localAccessFresh(b, false) })
	b.Run("beside", func(b *testing.B) { localAccessFresh(b, true) })
}

func localAccessFresh(b *testing.B, beside bool) {
	onOff(b, func(b *testing.B, race bool) {
		runControlledRace(&stay{}, race, func() {
			if beside {
				Go("other", func() {})
			}
			buf := make([]int, 4096)
			for i := 0; i < b.N; i++ {
				j := i % len(buf)
				if j == 0 {
					buf = make([]int, len(buf))
					escapedSink = buf // on the heap, as fresh buffers a parser hands on are
				}
				*W("local", &buf[j]) = i
			}
		})
	})
}

// BenchmarkSoloAccess: a read by the test goroutine, alone in its run for
// longer than soloRecordLimit accesses (a compression or a parser's loop):
// the path without bookkeeping, which such tests take billions of times.
func BenchmarkSoloAccess(b *testing.B) {
	runControlledRace(&stay{}, true, func() {
		x := escaped(new(int))
		for i := 0; i < soloRecordLimit+1; i++ {
			_ = *R("warm", x)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			_ = *R("solo", x)
		}
	})
}

// BenchmarkTableRead: reads of a lookup table the goroutine owns, again
// and again beside another goroutine, as a cipher's rounds read its
// S-boxes (bcrypt's Blowfish: tens of millions of reads a hash). ns/op =
// per read.
func BenchmarkTableRead(b *testing.B) {
	onOff(b, func(b *testing.B, race bool) {
		runControlledRace(&stay{}, race, func() {
			Go("other", func() {})
			table := make([]uint32, 1024)
			escapedSink32 = table
			var sum uint32
			for i := 0; i < b.N; i++ {
				sum += *R("sbox", &table[(uint32(i)*2654435761)>>22])
			}
			escapedSum = sum
		})
	})
}

var (
	escapedSink32 []uint32
	escapedSum    uint32
)
