// rewrite: go=1.13

//go:build linux || darwin
// +build linux darwin

// Package buildtag is an old module: loop variables are shared.
package buildtag

func Loop(ch chan int) []func() int {
	var fs []func() int
	for v := range ch {
		fs = append(fs, func() int { return v })
	}
	return fs
}
