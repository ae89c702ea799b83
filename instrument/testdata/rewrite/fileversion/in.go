// rewrite: go=1.13

//go:build go1.22

// Package fileversion is in a go 1.13 module but its build line makes it a
// Go 1.22 file: per-iteration loop variables, and no go1.21 line is added.
package fileversion

func Loop(ch chan int) []func() int {
	var fs []func() int
	for v := range ch {
		fs = append(fs, func() int { return v })
	}
	return fs
}
