// rewrite: go=1.21

// Package mapiter_go121: before Go 1.22 a range's k and v are shared by all
// iterations; the rewritten loop declares them in its init statement.
package mapiter_go121

func Closures(m map[string]int) []func() (string, int) {
	var fs []func() (string, int)
	for k, v := range m {
		fs = append(fs, func() (string, int) { return k, v })
	}
	return fs
}

func Plain(m map[int]int) int {
	n := 0
	for k, v := range m {
		n += k * v
	}
	return n
}
