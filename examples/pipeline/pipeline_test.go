package pipeline

import "testing"

// Correct: each stage owns and closes its output channel.
// period:want none
func TestPipeline(t *testing.T) {
	src := Generate(1, 2, 3)
	got := Sum(Merge(Square(src), Square(Generate(4))))
	if got != 1+4+9+16 {
		t.Fatalf("sum = %d, want 30", got)
	}
}
