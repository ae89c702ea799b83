// Package gen is generated code that the tests of its parent also embed as
// a golden file.
package gen

// Sum adds xs in a goroutine.
func Sum(xs []int) int {
	done := make(chan int)
	go func() {
		n := 0
		for _, x := range xs {
			n += x
		}
		done <- n
	}()
	return <-done
}
