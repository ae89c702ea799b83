// rewrite: go=1.21

// Package rangevars_go121: before Go 1.22 the range statement writes its one
// k and v at every iteration; where a closure captures them the write is
// announced (rt.W at the top of the body), as -race sees it.
package rangevars_go121

func Slice(xs []int) []func() int {
	var fs []func() int
	for i, x := range xs {
		fs = append(fs, func() int { return i + x })
	}
	return fs
}

// Only the captured variable is announced.
func OnlyValue(s string) []func() rune {
	var fs []func() rune
	for i, r := range s {
		_ = i
		fs = append(fs, func() rune { return r })
	}
	return fs
}

// Not captured: nothing to announce.
func Sum(xs [3]int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
