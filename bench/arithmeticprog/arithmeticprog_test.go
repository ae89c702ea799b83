package arithmeticprog

import (
	"sync"
	"testing"
)

// Bug (every schedule): total is always 0+1+2+3 = n(n+1)/2, which the assertion forbids.
// period:want fail
func TestArithmeticProg(t *testing.T) {
	Reset()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Producer() }()
	go func() { defer wg.Done(); Consumer() }()
	wg.Wait()
	if flag, total := Result(); flag && total == (n*(n+1))/2 {
		t.Fatalf("arithmetic_prog: total == n(n+1)/2 == %d", total)
	}
}
