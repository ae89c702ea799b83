//go:build go1.21

package rt

import "testing"

func TestGoidMatchesRuntimeStack(t *testing.T) {
	if goidOffset == 0 && haveGetg {
		t.Fatal("goroutine id offset not found: the fast path is disabled")
	}
	for i := 0; i < 20; i++ {
		ch := make(chan [2]int64)
		go func() { ch <- [2]int64{goid(), slowGoid()} }()
		got := <-ch
		if got[0] != got[1] {
			t.Fatalf("goid() = %d, runtime.Stack says %d", got[0], got[1])
		}
	}
}

func BenchmarkGoid(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = goid()
	}
}
