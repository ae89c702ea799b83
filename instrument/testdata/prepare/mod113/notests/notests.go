// Package notests has no tests: Prepare skips it.
package notests

func Answer() int { return 42 }
