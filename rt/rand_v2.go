//go:build go1.22

package rt

import randv2 "math/rand/v2"

// MathRandV2 is MathRand for math/rand/v2: the same numbers.
func MathRandV2() *randv2.Rand { return randv2.New(randSource()) }

// RandN is math/rand/v2's N.
func RandN[Int intType](n Int) Int {
	if n <= 0 {
		panic("invalid argument to N")
	}
	return Int(MathRandV2().Uint64N(uint64(n)))
}

type intType interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}
